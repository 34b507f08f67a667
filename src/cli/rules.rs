//! `playtest rules GAME`: every variant key of a game with its default, allowed values and
//! meaning, printed from the game's key table (the table the tests tie to the variant loader
//! and to `docs/games/<game>.md`).

use clap::Args;

use crate::error::Error;
use crate::games::{self, key_table};

/// Flags of `playtest rules`.
#[derive(Args, Debug)]
pub(super) struct RulesArgs {
    /// Game id, as in a variant's `game = "..."` (`playtest list` shows them), or a rules
    /// file (its parameters and the rules as played).
    game: String,
}

/// Prints the key table of the game named on the command line; an unknown game is a usage
/// error that lists the registered ones.
pub(super) fn rules(args: &RulesArgs) -> Result<(), Error> {
    let path = std::path::Path::new(&args.game);
    if args.game.ends_with(".toml") || path.is_file() {
        let variant = crate::variant::Variant::load(path, &[])?;
        if !games::rules::is_rules_file(&variant) {
            return Err(Error::Usage(format!(
                "{} is a variant of `{}`, not a rules file; `playtest rules {}` prints that game's keys",
                args.game, variant.game, variant.game
            )));
        }
        let game = games::rules::RulesGame::from_variant(&variant)?;
        print!("{}", games::rules::outline::outline(&variant, &game));
        return Ok(());
    }
    let keys = games::variant_keys(&args.game).ok_or_else(|| {
        Error::Usage(format!(
            "unknown game `{}`; allowed: {}, or a rules file (`playtest rules examples/rules/color-match.toml`)",
            args.game,
            games::GAME_IDS.join(", ")
        ))
    })?;
    println!("# {}: variant keys", args.game);
    println!();
    println!("Every key may be set in a variant file or with `--set KEY=VALUE`; the rules as played are in");
    println!("docs/games/{}.md. Common keys of every variant (game, name, description, extends, bots, seats,", args.game);
    println!("rotate, expect, tune) are in docs/variants.md.");
    println!();
    print!("{}", key_table::markdown(keys));
    Ok(())
}
