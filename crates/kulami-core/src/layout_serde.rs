//! Layouts in serde: stored as their one-line text (with the marble count when it is not the
//! board's default), and checked like any layout text when read.

use crate::layout::Layout;
use serde::{Deserialize, Deserializer, Serialize, Serializer, de::Error};

/// A layout with a marble count other than its board's default.
#[derive(Serialize, Deserialize)]
struct WithMarbles<T> {
    layout: T,
    marbles: usize,
}

/// The two readable forms: the text on one line, or the text and a marble count.
#[derive(Deserialize)]
#[serde(untagged)]
enum Readable {
    Text(String),
    WithMarbles(WithMarbles<String>),
}

/// A layout is stored as its text on one line (`"AABB/CCDD"`); one whose marble count is not
/// its board's default as `{"layout": "AABB/CCDD", "marbles": 3}`, and always so in binary
/// formats. Reading parses and checks the text as [`Layout::parse`] does.
impl Serialize for Layout {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let marbles = self.marbles_per_player();
        if serializer.is_human_readable() && marbles == usize::from(self.default_marbles_per_player()) {
            serializer.serialize_str(&self.to_one_line())
        } else {
            WithMarbles { layout: self.to_one_line(), marbles }.serialize(serializer)
        }
    }
}

impl<'de> Deserialize<'de> for Layout {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Layout, D::Error> {
        let (text, marbles) = if deserializer.is_human_readable() {
            match Readable::deserialize(deserializer)? {
                Readable::Text(text) => (text, None),
                Readable::WithMarbles(WithMarbles { layout, marbles }) => (layout, Some(marbles)),
            }
        } else {
            let WithMarbles { layout, marbles } = WithMarbles::<String>::deserialize(deserializer)?;
            (layout, Some(marbles))
        };
        let layout = Layout::parse(&text).map_err(D::Error::custom)?;
        match marbles {
            Some(marbles) => layout.with_marbles_per_player(marbles).map_err(D::Error::custom),
            None => Ok(layout),
        }
    }
}
