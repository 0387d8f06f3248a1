//! Reading a file a user (or a stranger's preset or sample game) named: a regular file only, read
//! through a size limit, with an error that says which file and why. Presets, `extends`, sample games
//! and the REPL's `open` all read through [`read_text`].

use std::io::Read;
use std::path::Path;

/// The largest preset or sample-game file read; a preset is a page of script, not a data set.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Why a named file was not read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("there is no such file")]
    NotFound,
    #[error("it is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("it is larger than the limit of {MAX_FILE_BYTES} bytes")]
    TooLarge,
    #[error("it is not UTF-8 text")]
    NotText,
    #[error("the file cannot be read: {0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::NotFound,
            std::io::ErrorKind::InvalidData => ReadError::NotText,
            _ => ReadError::Io(e),
        }
    }
}

/// What a file that is not regular is, for the error message.
fn what(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() { "a folder" } else { "not a file" }
}

/// Read a UTF-8 text file of at most [`MAX_FILE_BYTES`], following symbolic links but refusing
/// anything that is not a regular file at the end (a pipe would block, a device never ends).
///
/// The type is checked before opening (so opening a named pipe never waits for a writer), opened
/// without blocking where the platform allows, and checked again on the open handle (so a file
/// swapped in between is caught); the size limit is enforced while reading, not trusted from the
/// file's metadata.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let meta = std::fs::metadata(path)?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotRegular(what(meta.file_type())));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(all(
        target_os = "linux",
        any(
            target_arch = "x86_64",
            target_arch = "x86",
            target_arch = "aarch64",
            target_arch = "arm",
            target_arch = "riscv64"
        )
    ))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a named pipe swapped in after the check above does not block the open.
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(ReadError::NotRegular(what(meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_FILE_BYTES) as usize + 1);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge);
    }
    String::from_utf8(bytes).map_err(|_| ReadError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_what_is_not_a_regular_file() {
        assert!(matches!(read_text(Path::new("/definitely/not/here")), Err(ReadError::NotFound)));
        assert!(matches!(read_text(Path::new("/")), Err(ReadError::NotRegular("a folder"))));
        #[cfg(unix)]
        assert!(matches!(read_text(Path::new("/dev/zero")), Err(ReadError::NotRegular("a device"))));
    }
}
