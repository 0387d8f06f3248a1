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
    // Drop and shogi-family variants, named as Fairy-Stockfish's UCI_Variant names them.
    ("crazyhouse", include_str!("../presets/crazyhouse.preset")),
    ("chessgi", include_str!("../presets/chessgi.preset")),
    ("loop", include_str!("../presets/loop.preset")),
    ("shogi", include_str!("../presets/shogi.preset")),
    ("minishogi", include_str!("../presets/minishogi.preset")),
    ("seirawan", include_str!("../presets/seirawan.preset")),
    ("grand", include_str!("../presets/grand.preset")),
    ("capahouse", include_str!("../presets/capahouse.preset")),
    ("pocketknight", include_str!("../presets/pocketknight.preset")),
    ("judkins", include_str!("../presets/judkins.preset")),
    ("gorogoro", include_str!("../presets/gorogoro.preset")),
    ("euroshogi", include_str!("../presets/euroshogi.preset")),
    ("shouse", include_str!("../presets/shouse.preset")),
    ("xiangqi", include_str!("../presets/xiangqi.preset")),
    ("minixiangqi", include_str!("../presets/minixiangqi.preset")),
    ("janggi", include_str!("../presets/janggi.preset")),
    ("janggitraditional", include_str!("../presets/janggitraditional.preset")),
    ("janggimodern", include_str!("../presets/janggimodern.preset")),
    ("janggicasual", include_str!("../presets/janggicasual.preset")),
    ("manchu", include_str!("../presets/manchu.preset")),
    ("shako", include_str!("../presets/shako.preset")),
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
    // Counted checks, explosions and the horde (lib-check): `end checks`, `captures explode`, `en_passant in`.
    ("3check", include_str!("../presets/3check.preset")),
    ("5check", include_str!("../presets/5check.preset")),
    ("atomic", include_str!("../presets/atomic.preset")),
    ("horde", include_str!("../presets/horde.preset")),
    // Shogi, makruk and xiangqi families, small boards (issue 19, lib-asia2).
    ("dobutsu", include_str!("../presets/dobutsu.preset")),
    ("kyotoshogi", include_str!("../presets/kyotoshogi.preset")),
    ("micro", include_str!("../presets/micro.preset")),
    ("mini", include_str!("../presets/mini.preset")),
    ("makpong", include_str!("../presets/makpong.preset")),
    ("cambodian", include_str!("../presets/cambodian.preset")),
    ("asean", include_str!("../presets/asean.preset")),
    ("ai-wok", include_str!("../presets/ai-wok.preset")),
    ("shatar", include_str!("../presets/shatar.preset")),
    ("jesonmor", include_str!("../presets/jesonmor.preset")),
    ("karouk", include_str!("../presets/karouk.preset")),
    // More of Fairy-Stockfish's chess-board variants (lib-chessy).
    ("centaur", include_str!("../presets/centaur.preset")),
    ("chigorin", include_str!("../presets/chigorin.preset")),
    ("fairy", include_str!("../presets/fairy.preset")),
    ("racingkings", include_str!("../presets/racingkings.preset")),
    ("losers", include_str!("../presets/losers.preset")),
    ("suicide", include_str!("../presets/suicide.preset")),
    ("threekings", include_str!("../presets/threekings.preset")),
    ("placement", include_str!("../presets/placement.preset")),
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
