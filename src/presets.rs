//! The shipped presets, embedded in the binary so their names work from any directory.

/// The largest preset file read; a preset is a page of script, not a data set.
pub const MAX_PRESET_BYTES: u64 = crate::files::MAX_FILE_BYTES;

const SHIPPED: &[(&str, &str)] = &[
    ("chess", include_str!("../presets/chess.preset")),
    ("maidens", include_str!("../presets/maidens.preset")),
    ("modern-chaturanga", include_str!("../presets/modern-chaturanga.preset")),
    ("universal", include_str!("../presets/universal.preset")),
    ("ruddigore", include_str!("../presets/ruddigore.preset")),
    ("constructing", include_str!("../presets/constructing.preset")),
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

pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}
