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

/// Why a file was not written.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("it is a symbolic link; save to the file it names instead")]
    Link,
    #[error("it is {0}, not a regular file, and is left as it is")]
    NotRegular(&'static str),
    #[error("{0} is not a file name")]
    NoName(String),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Write `text` to `path`, creating it or replacing a regular file, never anything else.
///
/// The text goes to a new temporary file beside it (a name no one can guess, created exclusively,
/// so a link planted under that name is never followed), then is renamed over `path` (a rename
/// replaces a name, it does not write through a link). `path` must not be a symbolic link, a
/// folder, a pipe or a device. The temporary file is removed when anything fails.
pub fn write_text(path: &Path, text: &str) -> Result<(), WriteError> {
    write_with_mode(path, text, 0o666)
}

/// As [`write_text`], the file readable and writable by its owner only (on Unix): the REPL's history.
pub fn write_private(path: &Path, text: &str) -> Result<(), WriteError> {
    write_with_mode(path, text, 0o600)
}

fn write_with_mode(path: &Path, text: &str, #[cfg_attr(not(unix), allow(unused))] mode: u32) -> Result<(), WriteError> {
    use std::io::Write;
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => return Err(WriteError::Link),
        Ok(m) if !m.file_type().is_file() => return Err(WriteError::NotRegular(what(m.file_type()))),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let name = path.file_name().ok_or_else(|| WriteError::NoName(path.display().to_string()))?;
    let (tmp, mut file) = {
        let mut tries = 0;
        loop {
            let tmp = path.with_file_name(format!(".{}.{:016x}.tmp", name.to_string_lossy(), unguessable()));
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
            match options.open(&tmp) {
                Ok(f) => break (tmp, f),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 8 => tries += 1,
                Err(e) => return Err(e.into()),
            }
        }
    };
    let written = file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).and_then(|()| {
        drop(file);
        std::fs::rename(&tmp, path)
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.into());
    }
    Ok(())
}

/// 64 bits no one else can predict: the standard library's per-process random hash keys, mixed
/// with the clock, the process and a counter.
fn unguessable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
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
