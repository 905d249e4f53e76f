//! Search for Kulami. Levels, hints and analysis arrive with the AI work (issue 4); the crate
//! exists now so that the workspace has its final shape.
