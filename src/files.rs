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
    String::from_utf8(read_limited(path, MAX_FILE_BYTES)?).map_err(|_| ReadError::NotText)
}

/// The bytes of a regular file of at most `max` bytes, as [`read_text`] reads them.
fn read_limited(path: &Path, max: u64) -> Result<Vec<u8>, ReadError> {
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
    let mut bytes = Vec::with_capacity(meta.len().min(max) as usize + 1);
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

// ---- Pictures a preset names (`image "knight.svg"`), for the web board. ----

/// The largest picture a preset may name: a piece's figure, not a photograph.
pub const MAX_IMAGE_BYTES: u64 = 256 << 10;

/// The kinds of picture accepted, told by their first bytes (and their name's ending).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageType {
    Svg,
    Png,
}

impl ImageType {
    /// The media type it is served as.
    pub fn mime(self) -> &'static str {
        match self {
            ImageType::Svg => "image/svg+xml",
            ImageType::Png => "image/png",
        }
    }
}

/// Why a picture a preset names was not read.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("an image names a file beside the preset (`knight.svg`, `images/knight.png`), not `{0}`")]
    BadName(String),
    #[error("an image is a `.svg` or `.png` file, not `{0}`")]
    BadEnding(String),
    #[error("a shipped preset names no image files")]
    NoFolder,
    #[error("image `{0}` is not read: {1}")]
    Read(String, ReadError),
    #[error("image `{0}` is larger than the limit of {MAX_IMAGE_BYTES} bytes")]
    TooLarge(String),
    #[error("image `{0}` lies outside the preset's folder (through a symbolic link)")]
    Escapes(String),
    #[error("image `{0}` is not {1} file (its first bytes say so)")]
    NotThatType(String, &'static str),
}

/// Read a picture a preset names: `name` is a relative path under `dir` (the preset's folder) with
/// no `..`, ending `.svg` or `.png`; the file must lie under `dir` once links are followed, hold at
/// most [`MAX_IMAGE_BYTES`], and begin as its ending says (a PNG's signature, an SVG's `<svg`).
/// A preset may so read only the pictures it names, only beside itself.
pub fn read_image(dir: Option<&Path>, name: &str) -> Result<(ImageType, Vec<u8>), ImageError> {
    let bad = || ImageError::BadName(name.to_string());
    let rel = Path::new(name);
    let plain = |c: std::path::Component| matches!(c, std::path::Component::Normal(_));
    if name.is_empty() || name.contains(['\\', ':', '\0']) || rel.is_absolute() || !rel.components().all(plain) {
        return Err(bad());
    }
    let lower = name.to_ascii_lowercase();
    let ty = match lower.rsplit_once('.') {
        Some((_, "svg")) => ImageType::Svg,
        Some((_, "png")) => ImageType::Png,
        _ => return Err(ImageError::BadEnding(name.to_string())),
    };
    let dir = dir.ok_or(ImageError::NoFolder)?;
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let path = dir.join(rel);
    let bytes = read_limited(&path, MAX_IMAGE_BYTES).map_err(|e| match e {
        ReadError::TooLarge => ImageError::TooLarge(name.to_string()),
        e => ImageError::Read(name.to_string(), e),
    })?;
    // Links are followed, but the file reached must still be under the preset's folder.
    let (inside, folder) = (std::fs::canonicalize(&path), std::fs::canonicalize(dir));
    match (inside, folder) {
        (Ok(f), Ok(d)) if f.starts_with(&d) => {}
        (Ok(_), Ok(_)) => return Err(ImageError::Escapes(name.to_string())),
        (Err(e), _) | (_, Err(e)) => return Err(ImageError::Read(name.to_string(), e.into())),
    }
    let sniffed = match ty {
        ImageType::Png => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        ImageType::Svg => is_svg(&bytes),
    };
    if !sniffed {
        let what = if ty == ImageType::Png { "a PNG" } else { "an SVG" };
        return Err(ImageError::NotThatType(name.to_string(), what));
    }
    Ok((ty, bytes))
}

/// UTF-8 text whose first element, after an XML declaration, comments and a doctype, is `<svg`.
fn is_svg(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("<svg") {
            return after.starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/');
        }
        let end = if rest.starts_with("<?") {
            rest.find("?>").map(|i| i + 2)
        } else if rest.starts_with("<!--") {
            rest.find("-->").map(|i| i + 3)
        } else if rest.starts_with("<!") {
            rest.find('>').map(|i| i + 1)
        } else {
            None
        };
        match end {
            Some(i) => rest = rest[i..].trim_start(),
            None => return false,
        }
    }
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

    #[test]
    fn an_svg_is_told_by_its_first_element() {
        assert!(is_svg(b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"));
        assert!(is_svg(b"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- a knight -->\n<!DOCTYPE svg>\n<svg>"));
        assert!(!is_svg(b"<html><svg>"));
        assert!(!is_svg(b"<svgx>"));
        assert!(!is_svg(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_svg(b"<!-- never closed <svg>"));
    }

    #[test]
    fn an_image_name_stays_beside_the_preset() {
        for name in ["", "/etc/passwd.svg", "../x.svg", "a/../../x.svg", "./x.svg", "a\\b.svg", "c:x.svg"] {
            assert!(matches!(read_image(Some(Path::new(".")), name), Err(ImageError::BadName(_))), "{name}");
        }
        assert!(matches!(read_image(Some(Path::new(".")), "x.gif"), Err(ImageError::BadEnding(_))));
        assert!(matches!(read_image(None, "x.svg"), Err(ImageError::NoFolder)));
    }
}
