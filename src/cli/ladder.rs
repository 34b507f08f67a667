//! `playtest ladder`: every bot of a list against every other, on one scale. Two-seat games
//! are head to head; with more seats one bot plays against copies of the other. Every
//! pairing is a rotated run (each bot in every seat equally often on the same deals), so a
//! seat effect never passes for skill. Then: the win-rate matrix with 95% CIs (CSV, JSON,
//! heat map), Bradley–Terry/Luce ratings with intervals, the skill curve (each bot against
//! the first, weakest-listed bot, and the first-player advantage and mean length when every
//! seat plays that bot: does the balance verdict survive stronger play?), and a skill-vs-luck
//! figure.

use serde::Serialize;

use super::*;
use crate::engine::{BarSeries, ChartSpec};
use crate::stats::format;
use crate::stats::ratings::{self, Pairing, Rating};
use crate::stats::summary::Estimate;

#[derive(Args, Debug)]
pub(super) struct LadderArgs {
    /// The variant file (TOML).
    pub(super) variant: PathBuf,
    /// The bots to rank, weakest first (the skill curve is measured against the first):
    /// SPEC[,SPEC...], at least two.
    #[arg(long, value_name = "SPEC[,SPEC...]")]
    pub(super) bots: String,
    /// Override any key of the variant (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub(super) sets: Vec<String>,
    /// Games per pairing and per self-play run (rounded up to whole rotation blocks).
    #[arg(long, default_value_t = 2_000, value_parser = super::game_count, allow_hyphen_values = true)]
    pub(super) games: u64,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0)]
    pub(super) threads: usize,
    /// Write ladder.json, matrix.csv, ratings.csv and the charts into DIR.
    #[arg(long, value_name = "DIR")]
    pub(super) out: Option<PathBuf>,
    /// Print exactly one JSON object instead of the tables.
    #[arg(long)]
    pub(super) json: bool,
}

/// One cell of the matrix: the row bot's win share against copies of the column bot.
#[derive(Clone, Debug, Serialize)]
struct Cell {
    row: String,
    column: String,
    win_share: f64,
    ci95: [f64; 2],
    games: u64,
    /// Share of the pairing's games that ended with no winner (a deadlocked pairing, at
    /// [`DEADLOCK`] or more of these or of `cap_share`, is flagged: its shares measure
    /// nobody's strength).
    no_winner_share: f64,
    /// Share of the pairing's games that ended at the cap.
    cap_share: f64,
}

/// Share of a pairing's games with no winner, or at the cap, from which the pairing is
/// flagged as deadlocked.
const DEADLOCK: f64 = 0.5;

/// One bot's line of the skill curve.
#[derive(Clone, Debug, Serialize)]
struct Level {
    bot: String,
    rating: Rating,
    /// Win share against copies of the first bot (NaN for the first bot itself).
    vs_first: Option<Estimate>,
    /// With every seat playing this bot: seat 0's win share minus the fair share.
    first_player_advantage: Estimate,
    /// With every seat playing this bot: mean length and its 95% interval.
    mean_length: Estimate,
    /// With every seat playing this bot: the fair share (the seats' mean win share, lower
    /// than 1/seats when games end with no winner) and the share of games with no winner.
    self_play_fair_share: f64,
    /// See `self_play_fair_share`.
    self_play_no_winner_share: f64,
    /// The self-play run's warning when many of its games end at the cap or with no winner.
    #[serde(skip_serializing_if = "Option::is_none")]
    self_play_warning: Option<String>,
}

/// A whole ladder: the matrix, the skill curve and the skill-vs-luck figure.
#[derive(Clone, Debug, Serialize)]
pub(super) struct LadderResult {
    game: String,
    variant: String,
    seats: usize,
    /// A team game's teams (each team's seats; empty when every seat plays alone): a pairing
    /// then seats the row bot at every seat of the first mover's team and the column bot at
    /// every other seat, rotated, and the shares are the teams' (fair at 1/teams).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    teams: Vec<Vec<usize>>,
    fair_share: f64,
    games_per_pairing: u64,
    seed: u64,
    bots: Vec<String>,
    matrix: Vec<Cell>,
    levels: Vec<Level>,
    /// The strongest bot's (highest rating) win share against the first bot minus the fair
    /// share, as a share of the largest gap possible (1 - fair share): 0 = pure luck, 1 =
    /// the stronger player always wins.
    skill_vs_luck: Estimate,
    strongest: String,
}

pub(super) fn ladder(a: &LadderArgs) -> Result<(), Error> {
    let v = Variant::load(&a.variant, &a.sets)?;
    let specs = parse_bots(Some(&a.bots))?.unwrap_or_default();
    let labels = distinct_bots("--bots", &specs)?;
    run_ladder(&*games::handle(&v)?, &v, a, &labels)
}

/// The labels of a ladder's bots: at least two, each once (a bot against copies of itself is
/// not a pairing, and two copies would split one rating in two). `flag` names the flag.
pub(super) fn distinct_bots(flag: &str, specs: &[BotSpec]) -> Result<Vec<String>, Error> {
    if specs.len() < 2 {
        return Err(Error::Usage(format!("{flag}: a ladder needs at least two bots, got {}", specs.len())));
    }
    let labels: Vec<String> = specs.iter().map(|s| s.label()).collect();
    for (i, l) in labels.iter().enumerate() {
        if labels[..i].contains(l) {
            return Err(Error::Usage(format!(
                "{flag}: `{l}` is listed twice; a ladder ranks different bots, each once (a bot with other parameters is another bot, e.g. `{l}` and `{l}:PARAM=VALUE`)"
            )));
        }
    }
    Ok(labels)
}

fn run_ladder(game: &dyn GameHandle, variant: &Variant, a: &LadderArgs, bots: &[String]) -> Result<(), Error> {
    // Before the long run: the folder's lock and a writable temporary folder (the previous
    // ladder stays until this one is complete).
    let out = a.out.as_deref().map(open_out).transpose()?;
    let result = measure(game, variant, bots, (a.games, a.seed, a.threads), a.json)?;
    if let Some(out) = out {
        write_ladder(out.path(), &result)?;
        out.commit()?;
    }
    if a.json {
        output::print_json(&result)?;
    } else {
        print!("{}", text(&result));
        if let Some(dir) = &a.out {
            println!("wrote ladder.json, matrix.csv, ratings.csv, ladder_matrix.png and skill_curve.png into {}", crate::output::shown::tidy(dir).display());
        }
    }
    Ok(())
}

/// Plays the ladder of `bots` (weakest first): every pairing rotated, `games` per pairing
/// (rounded up to whole blocks) and per self-play run; progress on stderr unless `quiet`.
pub(super) fn measure(
    game: &dyn GameHandle,
    variant: &Variant,
    bots: &[String],
    (games, seed, threads): (u64, u64, usize),
    quiet: bool,
) -> Result<LadderResult, Error> {
    let seats = game.facts().acting_seats;
    let games = games.div_ceil(seats as u64) * seats as u64;
    let teams = team_lineup(game).map(|(_, teams)| teams).unwrap_or(0);
    let fair = 1.0 / if teams >= 2 { teams } else { seats } as f64;
    let mut matrix = Vec::new();
    let mut pairings = Vec::new();
    let mut share = vec![vec![None; bots.len()]; bots.len()];
    for (i, row) in bots.iter().enumerate() {
        for (j, column) in bots.iter().enumerate() {
            if i == j {
                continue;
            }
            let (cell, pairing) = pairing(game, variant, (i, row), (j, column), (games, seed, threads))?;
            share[i][j] = Some(Estimate { value: cell.win_share, ci95: cell.ci95 });
            if !quiet {
                eprintln!("{}", cell.progress_line());
            }
            pairings.push(pairing);
            matrix.push(cell);
        }
    }
    let rated = ratings::fit(bots.len(), &pairings);
    let mut levels = Vec::new();
    for (i, bot) in bots.iter().enumerate() {
        levels.push(self_play(game, variant, (bot, &rated[i], &share[i][0]), (games, seed, threads))?);
    }
    let strongest = (0..bots.len()).max_by(|&x, &y| rated[x].elo.total_cmp(&rated[y].elo)).unwrap_or(0);
    let gap = 1.0 - fair;
    let skill_vs_luck = match &share[strongest][0] {
        Some(e) => Estimate { value: (e.value - fair) / gap, ci95: [(e.ci95[0] - fair) / gap, (e.ci95[1] - fair) / gap] },
        // The first bot rates highest: nothing to measure against it (no figure, not 0).
        None => Estimate { value: f64::NAN, ci95: [f64::NAN, f64::NAN] },
    };
    Ok(LadderResult {
        game: game.facts().id.to_string(),
        variant: variant.name.clone(),
        seats,
        teams: if teams >= 2 { game.facts().teams.clone() } else { Vec::new() },
        fair_share: fair,
        games_per_pairing: games,
        seed,
        bots: bots.to_vec(),
        matrix,
        levels,
        skill_vs_luck,
        strongest: bots[strongest].clone(),
    })
}

/// A team game whose teams cover the acting seats and are equal in size: the seats of the
/// first mover's team and the number of teams. `None` when the seats play alone.
fn team_lineup(game: &dyn GameHandle) -> Option<(Vec<usize>, usize)> {
    let facts = game.facts();
    let teams = &facts.teams;
    let covered: usize = teams.iter().map(Vec::len).sum();
    let equal = teams.iter().all(|t| t.len() == teams[0].len());
    (teams.len() >= 2 && equal && covered == facts.acting_seats).then(|| (teams.iter().find(|t| t.contains(&0)).cloned().unwrap_or_default(), teams.len()))
}

/// One pairing of the ladder: the bot `row` (index `i`) in one seat against copies of
/// `column` (index `j`), `games` rotated games; its cell of the matrix and its pairing for
/// the ratings.
fn pairing(
    game: &dyn GameHandle,
    variant: &Variant,
    (i, row): (usize, &String),
    (j, column): (usize, &String),
    (games, seed, threads): (u64, u64, usize),
) -> Result<(Cell, Pairing), Error> {
    let facts = game.facts();
    let seats = facts.acting_seats;
    // A team game: the row bot plays every seat of the first mover's team, the column bot
    // every other seat (one team against the others); otherwise one seat against the rest.
    let (lineup, copies): (Vec<&str>, usize) = match team_lineup(game) {
        Some((first, teams)) => ((0..seats).map(|s| if first.contains(&s) { row.as_str() } else { column.as_str() }).collect(), teams - 1),
        None => (std::iter::once(row.as_str()).chain(std::iter::repeat_n(column.as_str(), seats - 1)).collect(), seats - 1),
    };
    let seated = seat_any(game, variant, Some(&lineup.join(",")))?;
    let cfg = RunConfig { threads, rotate: true, ..RunConfig::new(games, seed) };
    let r = seated.run_kept(cfg, &mut |_| {})?;
    stop_if_interrupted()?;
    let rot = r.rotation.as_ref().expect("a rotated run").summary();
    // The row bot is the first distinct label (unless both are the same spec).
    let mine = rot.bots.iter().find(|b| b.name == *row).expect("the row bot sat");
    let theirs = rot.bots.iter().find(|b| b.name == *column).expect("the column bot sat");
    let a_wins = mine.win_share * games as f64;
    let b_wins = theirs.win_share * games as f64 * copies as f64;
    let pairing = Pairing { a: i, b: j, copies: copies as u32, games: games as f64, a_wins, b_wins };
    let won: f64 = r.tally.wins[..facts.seats].iter().sum();
    let no_winner_share = (1.0 - won / r.tally.games.max(1) as f64).max(0.0);
    let cap = facts.end_reasons.iter().position(|x| *x == "cap").and_then(|i| r.tally.end_reasons.get(i)).copied().unwrap_or(0);
    let cap_share = cap as f64 / r.tally.games.max(1) as f64;
    let cell = Cell { row: row.clone(), column: column.clone(), win_share: mine.win_share, ci95: mine.ci95, games, no_winner_share, cap_share };
    Ok((cell, pairing))
}

impl Cell {
    /// The line a ladder prints on stderr as the pairing is done.
    fn progress_line(&self) -> String {
        format!(
            "ladder: {} against {}: {}, {} games{}",
            self.row,
            self.column,
            format::share_with_ci(self.win_share, self.ci95[0], self.ci95[1]),
            self.games,
            if self.no_winner_share.max(self.cap_share) >= DEADLOCK {
                format!("; DEADLOCK: {:.0}% of games at the cap, {:.0}% with no winner", 100.0 * self.cap_share, 100.0 * self.no_winner_share)
            } else {
                String::new()
            }
        )
    }
}

/// The self-play run of `bot` (every seat plays it, `games` games): its level of the skill
/// curve, with its rating and its share against the first bot.
fn self_play(
    game: &dyn GameHandle,
    variant: &Variant,
    (bot, rating, vs_first): (&str, &Rating, &Option<Estimate>),
    (games, seed, threads): (u64, u64, usize),
) -> Result<Level, Error> {
    let seated = seat_any(game, variant, Some(bot))?;
    let cfg = RunConfig { threads, ..RunConfig::new(games, seed) };
    let r = seated.run_kept(cfg, &mut |_| {})?;
    stop_if_interrupted()?;
    let summary = summarise(&*seated, variant, &cfg, &r);
    let (mean, sd) = r.tally.length_mean_sd();
    let half = 1.96 * sd / (r.tally.games as f64).sqrt();
    Ok(Level {
        bot: bot.to_string(),
        rating: rating.clone(),
        vs_first: vs_first.clone(),
        first_player_advantage: summary.first_player_advantage.clone(),
        mean_length: Estimate { value: mean, ci95: [mean - half, mean + half] },
        // A team game: the first mover's team against 1/teams.
        self_play_fair_share: summary.teams.as_ref().map_or_else(|| crate::stats::summary::fair_share(&summary.seats, summary.players), |t| t.fair_share()),
        self_play_no_winner_share: crate::stats::summary::no_winner_share(&summary.seats),
        self_play_warning: summary.deadlock_warning(),
    })
}

/// The skill curve as a report table (`report --ladder`): one row per bot with its rating,
/// its win share against the first bot, and the self-play first-player advantage and length.
pub(super) fn section(r: &LadderResult) -> crate::report::Section {
    crate::report::Section {
        title: format!("Skill ladder ({} rotated games per pairing)", r.games_per_pairing),
        lead: format!(
            "Every bot against copies of every other, seats rotated; ratings on the Elo scale (first bot = 0). Does the verdict survive stronger play: the first-player advantage and length when every seat plays each bot. Skill vs luck: {}.",
            skill_vs_luck(r)
        ) + &deadlocks(r),
        header: vec![
            "bot".into(),
            "rating (Elo, 95% CI)".into(),
            format!("win share vs {} (95% CI)", r.bots[0]),
            "first-player advantage, self-play (95% CI)".into(),
            "mean length, self-play (95% CI)".into(),
        ],
        rows: r
            .levels
            .iter()
            .map(|l| {
                let [rating, vs_first, advantage, length] = level_cells(l);
                vec![l.bot.clone(), rating, vs_first, advantage, length]
            })
            .collect(),
    }
}

/// A ladder stopped by Ctrl-C writes nothing (its matrix would be incomplete): exit 130,
/// the previous ladder in `--out` untouched.
fn stop_if_interrupted() -> Result<(), Error> {
    if crate::interrupt::requested() {
        return Err(Error::Interrupted("ladder interrupted: nothing written, the output folder is left as it was".into()));
    }
    Ok(())
}

/// The deadlocked pairings and self-play runs of a ladder, as sentences (empty when none).
fn deadlocks(r: &LadderResult) -> String {
    let mut out = String::new();
    for m in r.matrix.iter().filter(|m| m.no_winner_share.max(m.cap_share) >= DEADLOCK) {
        out.push_str(&format!(
            " Deadlock: {} against {} ends at the cap in {:.0}% of games ({:.0}% with no winner), so its win share measures no strength.",
            m.row,
            m.column,
            100.0 * m.cap_share,
            100.0 * m.no_winner_share
        ));
    }
    for l in &r.levels {
        if let Some(w) = &l.self_play_warning {
            out.push_str(&format!(" {} in self-play: {w}.", l.bot));
        }
    }
    out
}

fn pct(e: &Estimate) -> String {
    format::share_with_ci(e.value, e.ci95[0], e.ci95[1])
}

/// A level's rating, share against the first bot, self-play first-player advantage and
/// self-play length, each with its interval in the one notation ([`format`]).
fn level_cells(l: &Level) -> [String; 4] {
    [
        if l.rating.ci95 == [l.rating.elo; 2] {
            format!("{} (the reference)", format::signed(l.rating.elo, 0))
        } else {
            format::number_ci(l.rating.elo, l.rating.ci95[0], l.rating.ci95[1], 0, true)
        },
        l.vs_first.as_ref().map_or("-".into(), pct),
        format::estimate_points(&l.first_player_advantage),
        format::number_ci(l.mean_length.value, l.mean_length.ci95[0], l.mean_length.ci95[1], 1, false),
    ]
}

fn text(r: &LadderResult) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "ladder: {} / {}, {} seats{} (fair share {:.1}%), {} rotated games per pairing, seed {}",
        r.game,
        r.variant,
        r.seats,
        if r.teams.is_empty() { String::new() } else { format!(" in {} teams", r.teams.len()) },
        100.0 * r.fair_share,
        r.games_per_pairing,
        r.seed
    );
    o.push_str(&matrix_text(r));
    o.push_str(&levels_text(r));
    o.push_str(&robustness(r));
    let _ = writeln!(o, "\nskill vs luck: {}", skill_vs_luck(r));
    o
}

/// The skill-vs-luck figure as a sentence: how far the strongest bot against the first is
/// from the fair share towards always winning, with its interval.
fn skill_vs_luck(r: &LadderResult) -> String {
    let s = &r.skill_vs_luck;
    if r.strongest == r.bots[0] || !s.value.is_finite() {
        return format!(
            "not measured: the first bot ({}) rates highest, and skill vs luck is the strongest bot's way from the fair share against the first; list the weakest bot first",
            r.bots[0]
        );
    }
    format!(
        "the strongest bot ({}) against {} is {:.0}% of the way from the fair share to always winning, 95% CI {:.0}% to {:.0}%",
        r.strongest,
        r.bots[0],
        100.0 * s.value,
        100.0 * s.ci95[0],
        100.0 * s.ci95[1]
    )
}

/// The win-rate matrix as a table, with the deadlocked pairings and self-play runs warned of.
fn matrix_text(r: &LadderResult) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "\n{}, 95% CI; fair share {:.1}%:\n",
        if r.teams.is_empty() {
            "win share of the row bot (one seat) against copies of the column bot (the other seats)"
        } else {
            "win share of the row bot's team (the row bot at every seat of one team) against the column bot's (every other seat), teams rotated"
        },
        100.0 * r.fair_share
    );
    let _ = writeln!(o, "| row bot \\ column bot | {} |", r.bots.join(" | "));
    let _ = writeln!(o, "|---|{}", "---|".repeat(r.bots.len()));
    for row in &r.bots {
        let cells: Vec<String> = r
            .bots
            .iter()
            .map(|c| {
                if c == row {
                    return "(itself)".to_string();
                }
                r.matrix.iter().find(|m| m.row == *row && m.column == *c).map_or("-".to_string(), |m| pct(&Estimate { value: m.win_share, ci95: m.ci95 }))
            })
            .collect();
        let _ = writeln!(o, "| {row} | {} |", cells.join(" | "));
    }
    // Deadlocked pairings and self-play: their shares measure nobody's strength or seat.
    for m in r.matrix.iter().filter(|m| m.no_winner_share.max(m.cap_share) >= DEADLOCK) {
        let _ = writeln!(
            o,
            "  warning: {} against {}: deadlock ({:.0}% of games at the cap, {:.0}% with no winner): its {:.1}% is not a measure of strength",
            m.row,
            m.column,
            100.0 * m.cap_share,
            100.0 * m.no_winner_share,
            100.0 * m.win_share
        );
    }
    for l in &r.levels {
        if let Some(w) = &l.self_play_warning {
            let _ = writeln!(o, "  {} in self-play: {w}", l.bot);
        }
    }
    o
}

/// The skill curve as a table: each bot's rating, its share against the first bot and its
/// self-play figures.
fn levels_text(r: &LadderResult) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let fpa = if r.teams.is_empty() { "first-player advantage (self-play)" } else { "first-player advantage: seat 0's team (self-play)" };
    let _ = writeln!(o, "\n| bot | rating (Elo, first = 0) | vs {} | {fpa} | mean length |", r.bots[0]);
    let _ = writeln!(o, "|---|---|---|---|---|");
    for l in &r.levels {
        let [rating, vs_first, advantage, length] = level_cells(l);
        let _ = writeln!(o, "| {} | {rating} | {vs_first} | {advantage} | {length} |", l.bot);
    }
    o
}

/// The robustness table: each `ismcts` bot of the ladder against every other bot, with its
/// interval and a verdict against the fair share, so a designer sees whether the search is
/// the strongest player at every table. Empty when no `ismcts` bot is on the ladder.
fn robustness(r: &LadderResult) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    for search in r.bots.iter().filter(|b| b.split(':').next() == Some(crate::engine::ismcts::ISMCTS)) {
        let _ = writeln!(o, "\nrobustness: {search} (one seat) against copies of each other bot, 95% CI; fair share {:.1}%:\n", 100.0 * r.fair_share);
        let _ = writeln!(o, "| against | {search} win share | games | verdict |");
        let _ = writeln!(o, "|---|---|---|---|");
        for m in r.matrix.iter().filter(|m| m.row == *search) {
            let verdict = if m.ci95[0] > r.fair_share {
                "ahead"
            } else if m.ci95[1] < r.fair_share {
                "behind"
            } else {
                "not told apart"
            };
            let _ = writeln!(o, "| {} | {} | {} | {verdict} |", m.column, pct(&Estimate { value: m.win_share, ci95: m.ci95 }), m.games);
        }
    }
    o
}

/// Writes ladder.json, matrix.csv, ratings.csv and the charts ([`charts`]) into `dir`.
fn write_ladder(dir: &Path, r: &LadderResult) -> Result<(), Error> {
    write_data(dir, r)?;
    crate::report::charts::register_fonts();
    for chart in &charts(r) {
        crate::report::charts::render(chart, dir)?;
    }
    Ok(())
}

/// Writes ladder.json, matrix.csv and ratings.csv into `dir`.
pub(super) fn write_data(dir: &Path, r: &LadderResult) -> Result<(), Error> {
    output::write_json(&dir.join("ladder.json"), r)?;
    let mut csv = String::from("row,column,win_share,ci_low,ci_high,games\n");
    for c in &r.matrix {
        csv.push_str(&format!("{},{},{},{},{},{}\n", c.row, c.column, c.win_share, c.ci95[0], c.ci95[1], c.games));
    }
    let path = dir.join("matrix.csv");
    std::fs::write(&path, csv).map_err(|e| Error::output(&path, e))?;
    let mut csv = String::from("bot,elo,elo_low,elo_high,first_player_advantage,fpa_low,fpa_high,mean_length\n");
    for l in &r.levels {
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            l.bot,
            l.rating.elo,
            l.rating.ci95[0],
            l.rating.ci95[1],
            l.first_player_advantage.value,
            l.first_player_advantage.ci95[0],
            l.first_player_advantage.ci95[1],
            l.mean_length.value
        ));
    }
    let path = dir.join("ratings.csv");
    std::fs::write(&path, csv).map_err(|e| Error::output(&path, e))?;
    Ok(())
}

/// The ladder's two charts: the win-rate heat map and the skill curve.
pub(super) fn charts(r: &LadderResult) -> [ChartSpec; 2] {
    let n = r.bots.len();
    let cells: Vec<Vec<f64>> = (0..n)
        .rev()
        .map(|i| (0..n).map(|j| r.matrix.iter().find(|m| m.row == r.bots[i] && m.column == r.bots[j]).map_or(f64::NAN, |m| 100.0 * m.win_share)).collect())
        .collect();
    let labels: Vec<Vec<String>> = (0..n)
        .rev()
        .map(|i| {
            (0..n)
                .map(|j| {
                    r.matrix
                        .iter()
                        .find(|m| m.row == r.bots[i] && m.column == r.bots[j])
                        .map_or("-".into(), |m| format!("{:.1}% ({:.1}-{:.1})", 100.0 * m.win_share, 100.0 * m.ci95[0], 100.0 * m.ci95[1]))
                })
                .collect()
        })
        .collect();
    [
        ChartSpec::Heatmap {
            file: "ladder_matrix".into(),
            title: format!("{} / {}: row bot's win share against copies of the column bot ({} games each)", r.game, r.variant, r.games_per_pairing),
            x_label: "column bot (the other seats)".into(),
            y_label: "row bot (one seat)".into(),
            columns: r.bots.clone(),
            rows: r.bots.iter().rev().cloned().collect(),
            cells,
            cell_labels: labels,
            value_label: format!("win share of the row bot (%), fair {:.1}%", 100.0 * r.fair_share),
        },
        ChartSpec::Bars {
            file: "skill_curve".into(),
            title: format!("{} / {}: does the verdict survive stronger play? ({} games per bar)", r.game, r.variant, r.games_per_pairing),
            x_label: "bot (every seat in self-play; one seat against the first bot)".into(),
            y_label: "share of games (%)".into(),
            categories: r.bots.clone(),
            series: vec![
                BarSeries {
                    name: format!("win share against {} (%)", r.bots[0]),
                    // No bar for the first bot against itself (not a pairing).
                    values: r.levels.iter().map(|l| l.vs_first.as_ref().map_or(f64::NAN, |e| 100.0 * e.value)).collect(),
                    ci: Some(r.levels.iter().map(|l| l.vs_first.as_ref().map_or((f64::NAN, f64::NAN), |e| (100.0 * e.ci95[0], 100.0 * e.ci95[1]))).collect()),
                },
                BarSeries {
                    name: if r.teams.is_empty() { "seat 0 win share in self-play (%)".into() } else { "seat 0's team's win share in self-play (%)".into() },
                    values: r.levels.iter().map(|l| 100.0 * (l.first_player_advantage.value + l.self_play_fair_share)).collect(),
                    ci: Some(
                        r.levels
                            .iter()
                            .map(|l| {
                                (
                                    100.0 * (l.first_player_advantage.ci95[0] + l.self_play_fair_share),
                                    100.0 * (l.first_player_advantage.ci95[1] + l.self_play_fair_share),
                                )
                            })
                            .collect(),
                    ),
                },
            ],
            reference: Some((100.0 * r.fair_share, format!("fair share {:.1}%", 100.0 * r.fair_share))),
        },
    ]
}
