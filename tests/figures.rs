//! Every figure a report shows has a meaning and applies to the game: each game's own figures
//! carry a description and a unit (never the placeholder "<game>'s own figure"); a game with
//! no elimination shows no elimination rows; a team game has its team figures; no figure is
//! named twice. Checked on every bundled variant.

use std::path::{Path, PathBuf};

use playtest::designer::metrics::Catalogue;
use playtest::engine::Metrics;
use playtest::games::{self, GameVisitor, Registered};
use playtest::variant::Variant;

/// What one variant's catalogue says: (game id, has elimination, teams, figure rows as
/// (name, applies, about, unit)).
type Found = (String, bool, usize, Vec<(String, bool, String, String)>);

struct Describe<'a>(&'a Variant);

impl GameVisitor for Describe<'_> {
    type Output = Result<Found, playtest::Error>;
    fn visit<G: Registered>(self) -> Self::Output {
        let game = G::from_variant(self.0)?;
        let cat = Catalogue::new(&game);
        let own: Vec<String> = <G::Metrics as Default>::default().summary(0).into_iter().map(|(k, _)| k).collect();
        let rows = cat
            .defs
            .iter()
            .map(|d| {
                let unit = d.unit_label(cat.length_unit(), game.standing_unit());
                let own_unit =
                    if own.contains(&d.name) { <G::Metrics as Default>::default().meaning(&d.name).map(|m| m.unit).unwrap_or_default() } else { unit };
                (d.name.clone(), d.applies, d.about.clone(), own_unit)
            })
            .collect();
        Ok((game.id().to_string(), game.has_elimination(), game.teams().len(), rows))
    }
}

fn variants() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut out = Vec::new();
    for game in std::fs::read_dir(&root).expect("variants/") {
        let game = game.expect("entry").path();
        if let Ok(files) = std::fs::read_dir(&game) {
            out.extend(files.filter_map(|f| f.ok().map(|f| f.path())).filter(|p| p.extension().is_some_and(|e| e == "toml")));
        }
    }
    out.sort();
    out
}

#[test]
fn every_figure_of_every_bundled_variant_applies_and_says_what_it_is() {
    let mut games_seen = std::collections::BTreeSet::new();
    for path in variants() {
        let v = Variant::load(&path, &[]).expect("loads");
        let (id, eliminates, teams, rows) = games::visit(&v.game, Describe(&v)).expect("registered").expect("builds");
        games_seen.insert(id.clone());
        for (name, applies, about, unit) in &rows {
            assert!(!about.contains("own figure") && !about.is_empty(), "{}: `{name}` has no description", path.display());
            assert!(!unit.is_empty(), "{}: `{name}` has no unit", path.display());
            if name.contains("elimin") {
                assert_eq!(*applies, eliminates, "{}: `{name}` applies only where seats are eliminated", path.display());
            }
        }
        // A game's own figure named like a common one would be shown with the common figure's
        // interval around its own value (Bluffing Joker's `first_team_advantage` once was).
        let mut names: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        names.sort_unstable();
        let twice: Vec<&&str> = names.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
        assert!(twice.is_empty(), "{}: figures named twice (a game's own and a common one?): {twice:?}", path.display());
        let has = |n: &str| rows.iter().any(|r| r.0 == n);
        assert_eq!(teams >= 2, id == "bluffing-joker", "{}: only Bluffing Joker plays in teams", path.display());
        assert_eq!(has("first_team_advantage") && has("team_fairness_p"), teams >= 2, "{}", path.display());
        if teams >= 2 {
            assert!(has("team0_win_share") && has("team1_win_share"), "{}", path.display());
        }
    }
    assert!(games_seen.len() >= 9, "every game has a bundled variant: {games_seen:?}");
}
