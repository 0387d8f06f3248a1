//! The shipped presets, embedded in the binary so their names work from any directory.

/// The largest preset file read; a preset is a page of script, not a data set.
pub const MAX_PRESET_BYTES: u64 = 1 << 20;

const SHIPPED: &[(&str, &str)] = &[
    ("chess", include_str!("../presets/chess.preset")),
    ("maidens", include_str!("../presets/maidens.preset")),
    ("modern-chaturanga", include_str!("../presets/modern-chaturanga.preset")),
    ("universal", include_str!("../presets/universal.preset")),
    ("ruddigore", include_str!("../presets/ruddigore.preset")),
    ("constructing", include_str!("../presets/constructing.preset")),
    // The library of Fairy-Stockfish's variants (issue 19), each named as its UCI_Variant.
    ("shatranj", include_str!("../presets/shatranj.preset")),
    ("makruk", include_str!("../presets/makruk.preset")),
    ("gardner", include_str!("../presets/gardner.preset")),
    ("courier", include_str!("../presets/courier.preset")),
    ("knightmate", include_str!("../presets/knightmate.preset")),
    ("capablanca", include_str!("../presets/capablanca.preset")),
    ("nocastle", include_str!("../presets/nocastle.preset")),
    ("normal", include_str!("../presets/normal.preset")),
    ("amazon", include_str!("../presets/amazon.preset")),
    ("almost", include_str!("../presets/almost.preset")),
    ("gothic", include_str!("../presets/gothic.preset")),
    ("embassy", include_str!("../presets/embassy.preset")),
    ("janus", include_str!("../presets/janus.preset")),
    ("modern", include_str!("../presets/modern.preset")),
    ("chancellor", include_str!("../presets/chancellor.preset")),
    ("losalamos", include_str!("../presets/losalamos.preset")),
    ("hoppelpoppel", include_str!("../presets/hoppelpoppel.preset")),
    ("newzealand", include_str!("../presets/newzealand.preset")),
    ("kingofthehill", include_str!("../presets/kingofthehill.preset")),
    ("giveaway", include_str!("../presets/giveaway.preset")),
    ("antichess", include_str!("../presets/antichess.preset")),
    ("codrus", include_str!("../presets/codrus.preset")),
    ("extinction", include_str!("../presets/extinction.preset")),
    ("kinglet", include_str!("../presets/kinglet.preset")),
    ("breakthrough", include_str!("../presets/breakthrough.preset")),
    ("clobber", include_str!("../presets/clobber.preset")),
    ("clobber10", include_str!("../presets/clobber10.preset")),
];

/// Names of the shipped presets.
pub const NAMES: &[&str] = &{
    let mut names = [""; SHIPPED.len()];
    let mut i = 0;
    while i < SHIPPED.len() {
        names[i] = SHIPPED[i].0;
        i += 1;
    }
    names
};

/// Read a text file of at most [`MAX_PRESET_BYTES`]; `None` as the error when it is larger.
/// Reads through a limit rather than trusting the file's size: `/dev/zero` or a pipe has none.
pub fn read_bounded(path: &std::path::Path) -> Result<String, Option<std::io::Error>> {
    use std::io::Read;
    let mut text = String::new();
    let file = std::fs::File::open(path).map_err(Some)?;
    file.take(MAX_PRESET_BYTES + 1).read_to_string(&mut text).map_err(Some)?;
    if text.len() as u64 > MAX_PRESET_BYTES { Err(None) } else { Ok(text) }
}

pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
