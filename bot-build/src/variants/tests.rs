use super::*;

fn only(source: &str) -> Mark {
    let mut found = marks(source).unwrap_or_else(|err| panic!("{source:?}: {err}"));
    assert_eq!(found.len(), 1, "{source:?}: {found:?}");
    found.remove(0)
}

fn problem(source: &str) -> MarkError {
    match marks(source) {
        Ok(found) => panic!("{source:?} was accepted: {found:?}"),
        Err(err) => err,
    }
}

fn refused(source: &str, values: &[(&str, &str)]) -> String {
    match apply(source, values) {
        Ok(text) => panic!("{values:?} was accepted: {text}"),
        Err(err) => err.to_string(),
    }
}

#[test]
fn each_form_of_mark_is_read_with_its_values() {
    let ints = only("const TT_BITS: u32 = 20; // vary 13..=20\n");
    assert_eq!(
        (ints.kind, ints.line, ints.ty.as_str()),
        (MarkKind::Vary, 1, "u32")
    );
    assert_eq!(ints.current, Value::Int(20));
    assert_eq!(
        ints.values,
        Values::Ints {
            min: 13,
            max: 20,
            step: 1
        }
    );
    assert_eq!(ints.text(), "vary 13..=20");
    let stepped = only("const M: i32 = 150; // vary 50..=300 step 50\n");
    assert_eq!(
        stepped.values,
        Values::Ints {
            min: 50,
            max: 300,
            step: 50
        }
    );
    assert_eq!(stepped.values.count(), Some(6));
    let list = only("const S: u8 = 3; // vary 0|1|2|3\n");
    assert_eq!(list.values, Values::List((0..4).map(Value::Int).collect()));
    let paths = only("const S: Scheme = Scheme::Deep; // vary Scheme::Deep | Scheme::New\n");
    assert_eq!(
        paths.values,
        Values::List(vec![
            Value::Path("Scheme::Deep".into()),
            Value::Path("Scheme::New".into())
        ])
    );
    let flags = only("const NULL_MOVE: bool = true; // vary true|false\n");
    assert_eq!(flags.values.count(), Some(2));
    let tuned = only("const K: i32 = 300; // tune 200..=400\n");
    assert_eq!(tuned.kind, MarkKind::Tune);
    assert!(tuned.is_integer());
    let float = only("const R: f64 = 0.75; // tune 0.5..=1\n");
    assert_eq!(float.values, Values::Floats { min: 0.5, max: 1.0 });
    assert!(!float.is_integer());
    let negative = only("const D: i32 = -5; // vary -10..=10 step 5\n");
    assert_eq!(negative.current, Value::Int(-5));
    assert_eq!(negative.values.nth(4), Some(Value::Int(10)));
}

#[test]
fn marks_are_found_on_consts_at_any_depth_and_in_any_layout() {
    let source = "\u{feff}use framework::prelude::*;\r\n\
                  /// Doc. // vary 1..=2\r\n\
                  pub const A: i32 = 1; //vary 1..=2 // a note\r\n\
                  struct MyBot;\r\n\
                  impl MyBot { const B: u8 = 2; } // vary 2|4\r\n\
                  trait T { const C: i64 = 3; /* vary 9..=9 */ } // tune 0..=9\r\n\
                  fn f() -> usize { const E: usize = 4; E } // vary 4..=5\r\n\
                  pub const F: i32 =\r\n    7; // vary 7..=8\r\n";
    let found = marks(source).unwrap();
    let names: Vec<(&str, usize)> = found.iter().map(|m| (m.name.as_str(), m.line)).collect();
    assert_eq!(names, [("A", 3), ("B", 5), ("C", 6), ("E", 7), ("F", 9)]);
    let variant = apply(source, &[("A", "2"), ("E", "5"), ("F", "8")]).unwrap();
    assert_eq!(
        variant,
        source
            .replace("i32 = 1;", "i32 = 2;")
            .replace("usize = 4;", "usize = 5;")
            .replace("    7;", "    8;")
    );
}

#[test]
fn comments_that_are_not_marks_are_left_alone() {
    for source in [
        "/// vary 1..=2\nconst A: i32 = 1;\n",
        "//! vary 1..=2\nconst A: i32 = 1;\n",
        "const A: i32 = 1; /* vary 1..=2 */\n",
        "const A: &str = \"// vary 1..=2\";\n",
        "const A: i32 = 1; // varying it would help\n",
        "const A: i32 = 1; // Vary 1..=2\n",
        "const A: i32 = 1; /* /* nested */ // vary 1..=2 */\n",
        "const A: char = '/'; const B: char = '/';\n",
    ] {
        assert_eq!(marks(source).unwrap(), [], "{source:?}");
    }
}

#[test]
fn a_variant_changes_the_literal_and_nothing_else() {
    let source = "// top\nconst TT_BITS: u32 = 20u32; // vary 13..=20\n\
                  const R: f32 = 1.5f32; // vary 1.5|2|2.5\n\
                  const D: i32 = -3; // vary -3..=3\n\
                  const S: Scheme = ::s::Scheme::Deep; // vary ::s::Scheme::Deep|Scheme::New\n\
                  fn f() -> u32 { TT_BITS + 20 }\n";
    let variant = apply(
        source,
        &[
            ("S", "Scheme::New"),
            ("TT_BITS", "0x10"),
            ("R", "2"),
            ("D", "3"),
        ],
    )
    .unwrap();
    let expected = source
        .replace("20u32;", "16u32;")
        .replace("1.5f32;", "2.0f32;")
        .replace("= -3;", "= 3;")
        .replace("= ::s::Scheme::Deep;", "= Scheme::New;");
    assert_eq!(variant, expected);
    assert_eq!(apply(source, &[("D", "-3")]).unwrap(), source);
}

/// Each case: the file, the line the error names, and words of its message.
type Case = (&'static str, usize, &'static str);

fn check_refusals(cases: &[Case]) {
    for (source, line, message) in cases {
        let err = problem(source);
        assert_eq!(err.line, *line, "{source:?}: {err}");
        assert!(err.to_string().contains(message), "{source:?}: {err}");
    }
}

#[test]
fn marks_whose_values_do_not_parse_or_allow_nothing_are_refused() {
    check_refusals(&[
        (
            "const A: i32 = 1;\nconst B: i32 = 2; // vary 1..=x2\n",
            2,
            "the mark `vary 1..=x2` does not parse: `x2` is not a number",
        ),
        ("const A: i32 = 1; // vary\n", 1, "it has no values"),
        ("const A: i32 = 1; // vary 1..3\n", 1, "write `MIN..=MAX`"),
        ("const A: i32 = 1; // vary 1..=\n", 1, "does not parse"),
        (
            "const A: i32 = 1; // vary 1|2 step 1\n",
            1,
            "`step` goes with a range",
        ),
        (
            "const A: i32 = 1; // vary 0..=4 step x\n",
            1,
            "a step is a whole number",
        ),
        (
            "const A: i32 = 1; // vary 4..=1\n",
            1,
            "the mark `vary 4..=1` allows no value: 4 is above 1; write 1..=4",
        ),
        (
            "const A: i32 = 1; // vary 1..=4 step 0\n",
            1,
            "`step 0` never moves",
        ),
        (
            "const A: i32 = 1; // tune 1|2\n",
            1,
            "a `tune` mark takes bounds",
        ),
        (
            "const A: i32 = 1; // tune 0..=8 step 2\n",
            1,
            "a `tune` mark takes no step",
        ),
        (
            "const A: i32 = 1; // vary 1|2|1\n",
            1,
            "the mark `vary 1|2|1` lists `1` twice",
        ),
        (
            "const A: i32 = 1; // vary 1|2\nfn f( {}\n",
            2,
            "cannot be read for marks",
        ),
    ]);
}

#[test]
fn marks_that_name_nothing_or_do_not_fit_their_constant_are_refused() {
    check_refusals(&[
        (
            "const A: i32 = 1;\n\n// vary 1..=4\n",
            3,
            "the mark `vary 1..=4` names nothing: there is no `const` item on its line",
        ),
        ("static A: i32 = 1; // vary 1..=4\n", 1, "names nothing"),
        (
            "const A: i32 = 1; const B: i32 = 2; // vary 1..=2\n",
            1,
            "is on the line of `A` and `B`",
        ),
        (
            "const A: i32 = 1 + 1; // vary 1..=4\n",
            1,
            "`A` is `1 + 1`: a marked constant's value must be a number",
        ),
        (
            "const A: i32 = 1; // vary 1..=2.5\n",
            1,
            "`2.5` in the mark `vary 1..=2.5` is not a value of `A`'s type, i32",
        ),
        (
            "const A: u8 = 1; // vary 0..=300\n",
            1,
            "`300` in the mark `vary 0..=300` does not fit `A`'s type, u8",
        ),
        ("const A: u8 = 1; // vary -1|1\n", 1, "does not fit"),
        (
            "const A: f64 = 1.0; // vary 0.5..=2.0\n",
            1,
            "a float range has no grid",
        ),
        (
            "const A: bool = true; // vary 0..=1\n",
            1,
            "a range needs an integer or float",
        ),
        (
            "const A: i32 = 5; // vary 1..=4\n",
            1,
            "`A` is 5, which its mark `vary 1..=4` does not allow",
        ),
        (
            "const A: i32 = 5; // vary 0..=10 step 2\n",
            1,
            "`A` is 5, which",
        ),
        (
            "const A: i32 = 1; // vary 1|2\nmod m { const A: i32 = 1; } // vary 1|3\n",
            2,
            "`A` is marked on line 1 too",
        ),
    ]);
}

#[test]
fn bad_specs_are_refused_naming_the_cause() {
    let source = "const D: i32 = 3; // vary 1..=4\nconst S: u8 = 0; // vary 0|2\n\
                  const R: f64 = 1.0; // tune 0.5..=2.0\nconst V: i32 = 9;\n";
    let cases: &[(&[(&str, &str)], &str)] = &[
        (
            &[("X", "1")],
            "`X` is not a marked constant of the bot (marked: D, S, R)",
        ),
        (&[("V", "1")], "`V` is not a marked constant"),
        (&[("D", "1"), ("D", "2")], "`D` is given twice"),
        (
            &[("D", "9")],
            "`D=9` is outside its mark `vary 1..=4` (line 1)",
        ),
        (&[("D", "0")], "outside its mark"),
        (
            &[("S", "1")],
            "`S=1` is outside its mark `vary 0|2` (line 2)",
        ),
        (&[("S", "300")], "`S=300` is outside its mark"),
        (
            &[("D", "1.5")],
            "`D=1.5`: `D` is i32, and `1.5` is not a value of that type",
        ),
        (&[("D", "true")], "`D` is i32, and `true` is not"),
        (&[("D", "deep")], "`D` is i32, and `deep` is not"),
        (
            &[("R", "2.5")],
            "`R=2.5` is outside its mark `tune 0.5..=2.0` (line 3)",
        ),
        (&[("D", "1 + 1")], "`D=1 + 1`: the value does not parse"),
        (&[("D", "../../x")], "the value does not parse"),
        (&[("D", "")], "the value does not parse"),
    ];
    for (values, message) in cases {
        let err = refused(source, values);
        assert!(err.contains(message), "{values:?}: {err}");
    }
    assert_eq!(
        refused("const V: i32 = 9;\n", &[("V", "1")]),
        VariantError::NoMarks.to_string()
    );
    // A float constant takes an integer as the float it is.
    assert!(
        apply(source, &[("R", "2")])
            .unwrap()
            .contains("const R: f64 = 2.0;")
    );
}

#[test]
fn specs_are_split_into_names_and_values() {
    assert_eq!(
        parse_spec(" A = 1 ,B=Scheme::New").unwrap(),
        [
            ("A".to_string(), "1".to_string()),
            ("B".into(), "Scheme::New".into())
        ]
    );
    for (spec, reason) in [
        ("", "nothing follows the `@`"),
        ("A", "`A` has no `=`"),
        ("A=1,", "`` has no `=`"),
        ("=1", "`=1` needs a name and a value"),
        ("A=", "`A=` needs a name and a value"),
    ] {
        let err = parse_spec(spec).unwrap_err().to_string();
        assert!(err.ends_with(reason), "{spec:?}: {err}");
    }
    let long = format!("A={}", "1".repeat(MAX_SPEC_BYTES));
    assert!(
        parse_spec(&long)
            .unwrap_err()
            .to_string()
            .contains("over 4096 bytes")
    );
}

#[test]
fn the_grid_is_every_combination_of_the_vary_marks() {
    let source = "const A: i32 = 0; // vary 0..=10 step 5\nconst B: i32 = 1; // tune 0..=9\n\
                  const C: Scheme = Scheme::X; // vary Scheme::X|Scheme::Y\n";
    let found = marks(source).unwrap();
    let grid = grid(&found);
    assert_eq!(grid.size(), Some(6));
    let specs: Vec<String> = grid.map(|set| spec_text(&set)).collect();
    assert_eq!(
        specs,
        [
            "A=0,C=Scheme::X",
            "A=0,C=Scheme::Y",
            "A=5,C=Scheme::X",
            "A=5,C=Scheme::Y",
            "A=10,C=Scheme::X",
            "A=10,C=Scheme::Y"
        ]
    );
    let untuned = marks("const B: i32 = 1; // tune 0..=9\n").unwrap();
    let alone: Vec<Vec<Setting>> = super::grid(&untuned).collect();
    assert_eq!(alone, [Vec::<Setting>::new()], "only the bot itself");
    let huge = marks(
        "const A: i128 = 0; // vary -170141183460469231731687303715884105728..=170141183460469231731687303715884105727\n",
    )
    .unwrap();
    assert_eq!(huge[0].values.count(), None, "2^128 values");
    assert_eq!(super::grid(&huge).size(), None);
    assert_eq!(
        super::grid(&huge).nth(2).map(|set| spec_text(&set)),
        Some("A=-170141183460469231731687303715884105726".to_string())
    );
}

#[test]
fn ranges_count_and_hold_their_values_over_all_of_i128() {
    let all = Values::Ints {
        min: i128::MIN,
        max: i128::MAX,
        step: 1 << 127,
    };
    assert_eq!(all.count(), Some(2));
    assert_eq!(all.nth(1), Some(Value::Int(0)));
    assert_eq!(all.nth(2), None);
    assert!(all.contains(&Value::Int(0)));
    assert!(!all.contains(&Value::Int(1)));
    let short = Values::Ints {
        min: 0,
        max: 100,
        step: 30,
    };
    assert_eq!(short.nth(3), Some(Value::Int(90)));
    assert_eq!(short.nth(4), None);
    assert_eq!(short.nth(u128::MAX), None);
    assert!(!short.contains(&Value::Float(30.0)));
}

fn temp_root(test: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("kit-variants-{test}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    root
}

#[test]
fn a_variant_is_written_once_under_a_stable_name() {
    let root = temp_root("stable");
    let base = Path::new("/bots/deep.rs");
    let source = "const D: i32 = 3; // vary 1..=4\nconst S: u8 = 0; // vary 0|2\n";
    let made = write(&root, "deep", base, source, "S=2, D=0x2").unwrap();
    assert_eq!(made.name, "deep@D=2,S=2");
    assert_eq!(made.path.file_name().unwrap(), "deep@D=2,S=2.rs");
    let family_dir = made.path.parent().unwrap().to_path_buf();
    assert_eq!(family(&made.path, &root), Some(family_dir.clone()));
    let old = SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .append(true)
        .open(&made.path)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let again = write(&root, "deep", base, source, "D=2,S=2").unwrap();
    assert_eq!(again, made);
    let touched = fs::metadata(&made.path).unwrap().modified().unwrap();
    assert!(touched > old, "a reused variant is marked as used");
    let elsewhere = write(&root, "deep", Path::new("/other/deep.rs"), source, "D=2").unwrap();
    assert_ne!(
        elsewhere.path.parent(),
        made.path.parent(),
        "one folder per bot file"
    );
    let files: Vec<_> = variant_files(&family_dir);
    assert_eq!(files.len(), 1, "no partial file is left behind: {files:?}");
    assert_eq!(base_of(&made.path, &root).as_deref(), Some(base));
    assert_eq!(family(Path::new("/bots/deep.rs"), &root), None);
    assert!(write(&root, "deep", base, source, "D=9").is_err());
    assert_eq!(variant_files(&family_dir).len(), 1);
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn long_variant_names_get_a_hashed_file_name() {
    let root = temp_root("long");
    let name = format!("LONG_{}", "X".repeat(240));
    let source = format!("const {name}: i32 = 1; // vary 1|2\n");
    let made = write(
        &root,
        "b",
        Path::new("/b.rs"),
        &source,
        &format!("{name}=2"),
    )
    .unwrap();
    assert_eq!(made.name, format!("b@{name}=2"));
    let file = made.path.file_name().unwrap().to_str().unwrap().to_string();
    assert!(file.starts_with("b@") && file.len() < 60, "{file}");
    fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_family_keeps_its_most_recently_used_variants() {
    let root = temp_root("bound");
    let source = "const D: i32 = 0; // vary 0..=1000\n";
    let base = Path::new("/b.rs");
    let first = write(&root, "b", base, source, "D=0").unwrap();
    let old = SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .append(true)
        .open(&first.path)
        .unwrap()
        .set_modified(old)
        .unwrap();
    for d in 1..=KEPT_VARIANTS {
        write(&root, "b", base, source, &format!("D={d}")).unwrap();
    }
    let dir = first.path.parent().unwrap();
    assert_eq!(variant_files(dir).len(), KEPT_VARIANTS);
    assert!(!first.path.exists(), "the least recently used went");
    fs::remove_dir_all(&root).unwrap();
}

/// The files of a family's folder other than the note of its base file.
fn variant_files(dir: &Path) -> Vec<std::path::PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.file_name().is_some_and(|name| name != "base"))
        .collect()
}
