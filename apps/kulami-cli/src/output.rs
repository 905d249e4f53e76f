//! Writing to stdout without panicking: `println!` panics when the reader has gone away
//! (`kulami perft ... | head -1`); these macros return the error instead, and `main` ends quietly.

/// `print!` that returns an `io::Error` through `?`.
macro_rules! out {
    ($($arg:tt)*) => {
        std::io::Write::write_fmt(&mut std::io::stdout(), format_args!($($arg)*))?
    };
}

/// `println!` that returns an `io::Error` through `?`.
macro_rules! outln {
    () => {
        $crate::output::out!("\n")
    };
    ($($arg:tt)*) => {{
        $crate::output::out!($($arg)*);
        $crate::output::out!("\n");
    }};
}

pub(crate) use {out, outln};

/// Whether `error` comes from writing to a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe))
}
