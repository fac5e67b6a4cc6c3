//! The closed world: what the emulator models, as data. Every built-in function and
//! variable the compiler knows, every qualifier and layout, every extension the compiler
//! accepts, every piglit `[test]` command the parser knows and the GL state they set has one
//! [`Status`]: `modelled` (the cases that pin it on llvmpipe, which lowers, and on softpipe
//! and llvmpipe with `GALLIUM_NOSSE=1`, which do not), `bounded` (the emulator's values hold
//! for every conforming driver, by the spec text cited) or `not modelled`. A verdict takes no
//! `H` and no `M` from a test that uses a feature not modelled (`halfcheck_verdict`), and
//! `halfcheck features` prints the table.

mod table;

/// What kind of feature an entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A built-in function of GLSL ES (overloads and functions that behave alike grouped).
    Function,
    /// A built-in variable or constant of GLSL ES.
    Variable,
    /// A qualifier or layout.
    Qualifier,
    /// A GLSL ES extension the compiler accepts.
    Extension,
    /// A piglit `[test]` command, by its leading words.
    Command,
    /// GL state a command sets.
    State,
}

impl Kind {
    /// The kind as `halfcheck features` names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Variable => "variable",
            Kind::Qualifier => "qualifier",
            Kind::Extension => "extension",
            Kind::Command => "command",
            Kind::State => "state",
        }
    }
}

/// How far the emulator can be trusted with a feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Modelled, and pinned by these cases (paths from the repository root), each `lowered`
    /// on llvmpipe and `not-lowered` on softpipe and llvmpipe-nosse by
    /// `cases/expectations/`.
    Modelled(&'static [&'static str]),
    /// The emulator gives an interval (or an exact value) that holds for every conforming
    /// driver; the text is the spec that allows it.
    Bounded(&'static str),
    /// Not modelled: the text says what is missing. A test using it gets no `H` and no `M`.
    NotModelled(&'static str),
}

impl Status {
    /// The status as `halfcheck features` names it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Modelled(_) => "modelled",
            Status::Bounded(_) => "bounded",
            Status::NotModelled(_) => "not modelled",
        }
    }
}

/// One line of the inventory: names that behave alike, with their status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Feature {
    /// What kind of feature.
    pub kind: Kind,
    /// The names it covers (built-in names, extension names, commands' leading words, or a
    /// description for qualifiers and state).
    pub names: &'static [&'static str],
    /// Its status.
    pub status: Status,
}

/// Every feature, in the order `halfcheck features` prints them.
pub fn features() -> &'static [Feature] {
    table::FEATURES
}

/// The feature of `kind` that covers `name`, if the inventory has one.
pub fn find(kind: Kind, name: &str) -> Option<&'static Feature> {
    table::FEATURES
        .iter()
        .find(|f| f.kind == kind && f.names.contains(&name))
}

/// Whether the inventory says the emulator does not model `name` of `kind`.
pub fn not_modelled(kind: Kind, name: &str) -> bool {
    find(kind, name).is_some_and(|f| matches!(f.status, Status::NotModelled(_)))
}

/// The shader keywords that use a qualifier the emulator does not model, each with the
/// inventory line it falls under.
pub const UNMODELLED_QUALIFIERS: &[(&str, &str)] = &[
    ("centroid", "centroid"),
    ("sample", "sample"),
    (
        "binding",
        "layout(binding), uniform blocks and shader storage blocks",
    ),
    (
        "buffer",
        "layout(binding), uniform blocks and shader storage blocks",
    ),
];
