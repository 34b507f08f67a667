//! `playtest rules GAME`: every variant key of a game with its default, allowed values and
//! meaning, printed from the game's key table (the table the tests tie to the variant loader
//! and to `docs/games/<game>.md`).

use clap::Args;

use crate::error::Error;
use crate::games::{self, key_table};

/// Flags of `playtest rules`.
#[derive(Args, Debug)]
pub(super) struct RulesArgs {
    /// Game id, as in a variant's `game = "..."` (`playtest list` shows them).
    game: String,
}

/// Prints the key table of the game named on the command line; an unknown game is a usage
/// error that lists the registered ones.
pub(super) fn rules(args: &RulesArgs) -> Result<(), Error> {
    let keys = games::variant_keys(&args.game).ok_or_else(|| Error::Usage(format!("unknown game `{}`; allowed: {}", args.game, games::GAME_IDS.join(", "))))?;
    println!("# {}: variant keys", args.game);
    println!();
    println!("Every key may be set in a variant file or with `--set KEY=VALUE`; the rules as played are in");
    println!("docs/games/{}.md. Common keys of every variant (game, name, description, extends, bots, seats,", args.game);
    println!("rotate, expect, tune) are in docs/variants.md.");
    println!();
    print!("{}", key_table::markdown(keys));
    Ok(())
}
