//! `playtest validate`: check variant files without playing: `check`'s loading (the
//! variant, its bots and its `[expect]` bounds, every bad bound of a file at once) without
//! the play, so a file that validates is one `check` accepts. A rules file is also played
//! a fixed-seed sample of games for warnings (`games::rules::lint`).

use super::*;

#[derive(Args, Debug)]
pub(super) struct ValidateArgs {
    /// Variant files.
    #[arg(required = true)]
    pub(super) variants: Vec<PathBuf>,
    /// Overrides applied to every file.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
}

pub(super) fn validate(a: &ValidateArgs) -> Result<(), Error> {
    let mut failed = None;
    for path in &a.variants {
        let result = Variant::load(path, &a.sets).map_err(Error::from).and_then(|v| describe(&v).map(|d| (v, d)));
        match result {
            Ok((v, detail)) => {
                println!("ok: {} ({} / {}): {detail}", path.display(), v.game, v.name);
                for w in games::handle(&v).map(|g| games::handle::unused_key_warnings(&*g, &v)).unwrap_or_default() {
                    println!("  {w}");
                }
                // A rules file: warnings from a fixed-seed sample of games.
                if games::rules::is_rules_file(&v) {
                    let game = games::rules::RulesGame::from_variant(&v)?;
                    let warnings = games::rules::lint::lint(&game, &v, 1);
                    for w in &warnings {
                        println!("warning: {w}");
                    }
                    println!(
                        "  rules file: {} warning(s) from {} sampled games (random at every seat, seed 1)",
                        warnings.len(),
                        games::rules::lint::LINT_GAMES
                    );
                }
            }
            // One variant: its error is returned and printed once by main; several: each is
            // printed here and main prints the count.
            Err(e) if a.variants.len() == 1 => failed = Some(e),
            Err(e) => {
                eprintln!("error: {e}");
                failed = Some(e);
            }
        }
    }
    match failed {
        Some(e) if a.variants.len() == 1 => Err(e),
        Some(_) => Err(Error::Usage("some variants are invalid (see above)".into())),
        None => Ok(()),
    }
}

/// What `validate` says of a variant that loads: its players, bots and `[expect]` bounds.
fn describe(variant: &Variant) -> Result<String, Error> {
    let game = games::handle(variant)?;
    let seated = seat_any(&*game, variant, None)?;
    let cat = crate::designer::metrics::Catalogue::of(game.facts()).rotated(variant.rotate, seated.acting());
    let bounds = crate::designer::check::expectations(variant, &cat)?;
    Ok(format!(
        "{} players, bots: {}{}",
        game.facts().acting_seats,
        seated.seat_labels().join(", "),
        if bounds.is_empty() { String::new() } else { format!("; {} [expect] bound(s)", bounds.len()) }
    ))
}
