//! One line of NIR text as an instruction: its definition (name, components, bit size), its
//! opcode and its sources. Only what a dump must hold is read; a line that is none of the
//! shapes below is `None`, never an error.
//!
//! The shapes, as Mesa's `nir_print.c` has written them over the years:
//! - the definition: `vec4 32 ssa_5` (2016 to 2023), `vec4 ssa_5` (before bit sizes, 2015),
//!   `32x4 %5`, `16 %5`, each with an optional `con `/`div ` (from 2023), and
//!   `/* name */ ` comments before it;
//! - the right-hand side: an ALU opcode with its sources (`fadd ssa_1, ssa_2.x`,
//!   `fmul! %3, %4 (0.25)`, `-ssa_1` and `abs(ssa_1)` modifiers and `.sat` before 2019),
//!   `intrinsic name (...)` or `@name (...)`, `load_const (...)`, `deref_var &name (...)`,
//!   `phi block_0: ssa_1, ...`, `undefined`/`ssa_undef`, and texture instructions
//!   (`tex`, `txl`, ..., `(float16)tex` from 2023).

/// What kind of instruction a line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An ALU operation: `opcode` is its name.
    Alu,
    /// An intrinsic (`load_ubo`, `store_deref`, ...): `opcode` is its name.
    Intrinsic,
    /// A constant.
    LoadConst,
    /// A variable dereference; `var` holds the variable's name for `deref_var`, `mode` its
    /// mode (`shader_out`, `shader_in`, ...).
    Deref {
        /// The variable's name (`deref_var` only).
        var: Option<String>,
        /// Its mode, the first word in the parentheses (`deref_var` only).
        mode: Option<String>,
    },
    /// A phi: its sources come from the blocks before it.
    Phi,
    /// A texture instruction.
    Texture,
    /// An undefined value.
    Undefined,
}

/// The SSA value an instruction defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Def {
    /// Its name as the dump spells it (`ssa_5`, `%5`).
    pub name: String,
    /// Its components (1 to 16).
    pub components: u8,
    /// Its bit size (1, 8, 16, 32, 64); `None` in dumps from before NIR had bit sizes.
    pub bits: Option<u8>,
}

/// One source of an instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The SSA value read (`ssa_5`, `%5`).
    pub name: String,
    /// The swizzle, when the dump prints one (`xxyz`).
    pub swizzle: Option<String>,
}

/// One instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instr {
    /// Its line in the text it was read from, from 1.
    pub line: usize,
    /// What it defines, if anything (a store defines nothing).
    pub def: Option<Def>,
    /// What kind of instruction it is.
    pub kind: Kind,
    /// The opcode or intrinsic name (`fmul`, `store_deref`); the kind's name otherwise.
    pub opcode: String,
    /// Its SSA sources, in order.
    pub sources: Vec<Source>,
    /// For a store: the components written (`wrmask=xyzw`).
    pub write_mask: Option<String>,
}

/// The texture instructions' names.
const TEXTURE_OPS: &[&str] = &[
    "tex",
    "txb",
    "txl",
    "txd",
    "txf",
    "txf_ms",
    "txf_ms_fb",
    "txf_ms_mcs",
    "txs",
    "lod",
    "tg4",
    "query_levels",
    "texture_samples",
    "samples_identical",
    "tex_prefetch",
    "fragment_fetch",
    "fragment_mask_fetch",
];

/// Reads `text` (one line, `line` its number) as an instruction, or `None` when it is not one.
pub fn parse(text: &str, line: usize) -> Option<Instr> {
    let text = strip_comments(text);
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    match text.split_once('=') {
        Some((lhs, rhs)) if !lhs.contains('(') => {
            let def = parse_def(lhs)?;
            let mut instr = parse_rhs(rhs.trim(), line)?;
            instr.def = Some(def);
            Some(instr)
        }
        _ => {
            // An instruction with no definition: an intrinsic such as a store.
            let instr = parse_rhs(text, line)?;
            (instr.kind == Kind::Intrinsic).then_some(instr)
        }
    }
}

/// `text` without its `/* ... */` comments (an unclosed one runs to the end).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        match rest[start + 2..].find("*/") {
            Some(end) => rest = &rest[start + 2 + end + 2..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The definition on the left of `=`.
fn parse_def(lhs: &str) -> Option<Def> {
    let mut words: Vec<&str> = lhs.split_whitespace().collect();
    if matches!(words.first(), Some(&"con") | Some(&"div")) {
        words.remove(0);
    }
    match words.as_slice() {
        // `vec4 32 ssa_5`, `vec4 ssa_5`
        [vec, rest @ ..] if vec.starts_with("vec") => {
            let components = vec["vec".len()..].parse().ok()?;
            let (bits, name) = match rest {
                [bits, name] => (Some(bits.parse().ok()?), name),
                [name] => (None, name),
                _ => return None,
            };
            value_name(name).then(|| Def {
                name: name.to_string(),
                components,
                bits,
            })
        }
        // `32x4 %5`, `16 %5`
        [size, name] if value_name(name) => {
            let (bits, components) = match size.split_once('x') {
                Some((bits, n)) => (bits.parse().ok()?, n.parse().ok()?),
                None => (size.parse().ok()?, 1),
            };
            Some(Def {
                name: name.to_string(),
                components,
                bits: Some(bits),
            })
        }
        _ => None,
    }
}

/// Whether `word` names an SSA value (`ssa_5`, `%5`).
fn value_name(word: &str) -> bool {
    let digits = word
        .strip_prefix("ssa_")
        .or_else(|| word.strip_prefix('%'))
        .unwrap_or("");
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The instruction on the right of `=` (or a whole line with no definition).
fn parse_rhs(rhs: &str, line: usize) -> Option<Instr> {
    let (head, rest) = match rhs.find(|c: char| c.is_whitespace()) {
        Some(i) => (&rhs[..i], rhs[i..].trim_start()),
        None => (rhs, ""),
    };
    let instr = |kind, opcode: &str, sources| Instr {
        line,
        def: None,
        kind,
        opcode: opcode.to_string(),
        sources,
        write_mask: None,
    };
    if head == "intrinsic" || head.starts_with('@') {
        let (name, args) = match head.strip_prefix('@') {
            Some(name) => (name, rest),
            None => rest.split_once(|c: char| c.is_whitespace() || c == '(')?,
        };
        let args = args.trim_start();
        let (sources, after) = paren_group(args.strip_prefix('(')?)?;
        let mut out = instr(Kind::Intrinsic, name, split_sources(sources));
        out.write_mask = paren_group(after.trim_start().strip_prefix('(').unwrap_or(""))
            .and_then(|(indices, _)| write_mask(indices));
        return Some(out);
    }
    match head {
        "load_const" => return Some(instr(Kind::LoadConst, head, Vec::new())),
        "undefined" | "ssa_undef" | "undef" => {
            return Some(instr(Kind::Undefined, head, Vec::new()))
        }
        "phi" => {
            let sources = rest
                .split(',')
                .filter_map(|s| s.split_once(':'))
                .filter_map(|(_, v)| source(v))
                .collect();
            return Some(instr(Kind::Phi, head, sources));
        }
        _ => {}
    }
    if let Some(kind) = head.strip_prefix("deref_") {
        let (var, mode) = if kind == "var" {
            let name = rest.split_whitespace().next()?.trim_start_matches('&');
            let mode = rest
                .split_once('(')
                .and_then(|(_, m)| m.split_whitespace().next())
                .map(|m| m.trim_end_matches(')').to_string());
            (Some(name.to_string()), mode)
        } else {
            (None, None)
        };
        let sources = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%'))
            .filter(|w| value_name(w))
            .map(|w| Source {
                name: w.to_string(),
                swizzle: None,
            })
            .collect();
        return Some(instr(Kind::Deref { var, mode }, head, sources));
    }
    // `(float16)tex` names the texture's type before the opcode.
    let bare = head
        .strip_prefix('(')
        .and_then(|h| h.split_once(')'))
        .map_or(head, |(_, op)| op);
    if TEXTURE_OPS.contains(&bare) {
        let sources = rest
            .split(',')
            .filter_map(|s| source(s.split('(').next().unwrap_or("")))
            .collect();
        return Some(instr(Kind::Texture, bare, sources));
    }
    // An ALU opcode: `fadd`, `fmul!`, `iadd.nsw`, `fadd.sat` (before 2019).
    let opcode = head
        .split(['!', '.'])
        .next()
        .filter(|op| is_identifier(op))?;
    let sources = split_top_level(rest)
        .into_iter()
        .map(source)
        .collect::<Option<Vec<_>>>()?;
    Some(instr(Kind::Alu, opcode, sources))
}

/// Whether `word` is a lowercase identifier starting with a letter.
fn is_identifier(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// The text inside one pair of parentheses (`text` starts after the opening one), and what
/// follows the closing one.
fn paren_group(text: &str) -> Option<(&str, &str)> {
    let mut depth = 1usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&text[..i], &text[i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `text` split at the commas outside parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(&text[start..]);
    }
    parts
}

/// The sources of an intrinsic: the values among its comma-separated arguments.
fn split_sources(text: &str) -> Vec<Source> {
    split_top_level(text)
        .into_iter()
        .filter_map(source)
        .collect()
}

/// One source: a value name with modifiers (`-`, `abs(...)`, `neg(...)`), a swizzle and an
/// inline constant (`%3 (1.0)`) around it.
fn source(text: &str) -> Option<Source> {
    let text = text.trim();
    let text = text.split(" (").next().unwrap_or(text);
    let start = text.find("ssa_").or_else(|| text.find('%'))?;
    let word = &text[start..];
    let end = word
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '%' || c == '.'))
        .unwrap_or(word.len());
    let word = &word[..end];
    let (name, swizzle) = match word.split_once('.') {
        Some((name, swizzle)) => (name, Some(swizzle.to_string())),
        None => (word, None),
    };
    value_name(name).then(|| Source {
        name: name.to_string(),
        swizzle,
    })
}

/// The `wrmask=` index of an intrinsic, if it has one.
fn write_mask(indices: &str) -> Option<String> {
    indices
        .split(',')
        .find_map(|i| i.trim().strip_prefix("wrmask="))
        .map(|m| m.split_whitespace().next().unwrap_or("").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alu(text: &str) -> Instr {
        parse(text, 1).unwrap_or_else(|| panic!("no instruction in {text:?}"))
    }

    #[test]
    fn definitions_of_every_era_give_components_and_bit_size() {
        let old = alu("vec1 16 ssa_7 = fdiv ssa_33, ssa_32");
        assert_eq!(
            old.def.as_ref().map(|d| (d.components, d.bits)),
            Some((1, Some(16)))
        );
        assert_eq!(old.opcode, "fdiv");
        assert_eq!(old.sources.len(), 2);
        let new = alu("div 16x4  %12 = fmul! %3, %9.xxxx");
        let def = new.def.unwrap();
        assert_eq!(
            (def.name.as_str(), def.components, def.bits),
            ("%12", 4, Some(16))
        );
        assert_eq!(new.opcode, "fmul");
        assert_eq!(new.sources[1].swizzle.as_deref(), Some("xxxx"));
        let before_bits = alu("vec4 ssa_5 = fadd.sat -ssa_1, abs(ssa_2.wzyx)");
        assert_eq!(before_bits.def.unwrap().bits, None);
        assert_eq!(before_bits.opcode, "fadd");
        assert_eq!(before_bits.sources[1].name, "ssa_2");
        assert_eq!(before_bits.sources[1].swizzle.as_deref(), Some("wzyx"));
    }

    #[test]
    fn inline_constants_and_comments_are_not_sources() {
        let i = alu("32 %9 = fmul %7, %8 (0.250000)");
        assert_eq!(i.sources.len(), 2);
        let i = alu("vec1 32 ssa_9 = fmul ssa_7, ssa_8 /*(0x3e800000 = 0.250000)*/");
        assert_eq!(i.sources.len(), 2);
        let c = alu("vec1 16 ssa_0 = load_const (0x3c00 = 1.000000)");
        assert_eq!(c.kind, Kind::LoadConst);
    }

    #[test]
    fn stores_derefs_phis_and_textures_are_read() {
        let store = alu("intrinsic store_deref (ssa_2, ssa_1) (wrmask=xyzw /*15*/, access=0)");
        assert_eq!(store.opcode, "store_deref");
        assert_eq!(store.write_mask.as_deref(), Some("xyzw"));
        let store = alu("@store_deref (%2, %1) (wrmask=xy, access=none)");
        assert_eq!(store.sources.len(), 2);
        assert_eq!(store.write_mask.as_deref(), Some("xy"));
        let deref = alu("vec1 32 ssa_2 = deref_var &gl_FragColor (shader_out vec4) ");
        assert_eq!(
            deref.kind,
            Kind::Deref {
                var: Some("gl_FragColor".into()),
                mode: Some("shader_out".into())
            }
        );
        let phi = alu("vec1 16 ssa_6 = phi block_0: ssa_55, block_4: ssa_11");
        assert_eq!(phi.sources.len(), 2);
        let phi = alu("16 %6 = phi b0: %55, b4: %11");
        assert_eq!(phi.sources[1].name, "%11");
        let tex = alu("vec4 16 ssa_5 = (float16)tex ssa_3 (coord), 0 (texture), 0 (sampler)");
        assert_eq!((tex.kind, tex.sources.len()), (Kind::Texture, 1));
    }

    #[test]
    fn junk_is_no_instruction() {
        for junk in [
            "",
            "block block_0:",
            "/* preds: */",
            "loop {",
            "PIGLIT: {\"result\": \"pass\" }",
            "vec1 banana ssa_1 = fadd ssa_0, ssa_0",
            "= fadd",
            "vec1 32 ssa_1 = ",
            "vec1 32 ssa_1 = fadd ssa_0, (",
            "intrinsic store_deref (ssa_2",
            "\u{0}\u{ff}é = é",
            "vec99999999999 32 ssa_1 = fmul ssa_0, ssa_0",
        ] {
            assert_eq!(parse(junk, 1), None, "{junk:?}");
        }
    }
}
