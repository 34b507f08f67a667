//! Whether the search's pick replaces the prior (the trust tests): the plain test of
//! `model=default`, and `model=auto`'s three bars for the luck of the best of many look-alike
//! actions (`bar`: shrunk means, a fixed luck bar, the duel's paired playouts).

use super::super::Game;
use super::Ismcts;
use super::params::Bar;
use super::tree::{NONE, Node};

/// How many times the luck of the best of k noisy means `model=auto`'s search must beat the
/// prior by (`beats_by_more_than_luck`). Once played Beaver Mania's mixed table better (76.9%,
/// 70.6 to 82.2, against 57.0%, 200 rotated games) but lost to three Penny Badger `counter`s
/// (11.7%, 6.9 to 19.1, against 34.2%, 26.3 to 43.0, 120 rotated games): docs/skill.md.
const LUCK_TIMES: f64 = 2.0;

/// How many times `trust` standard errors `model=auto`'s pick must beat the prior by with
/// `bar=0` ([`Shrinkage`]) and `bar=2` (the duel), so that `trust`'s one default serves both
/// models: with `bar=0` at once three Flower Power `greedy`s 52.9% (49.9 to 56.0) and three
/// Penny Badger `counter`s too few, at twice 48.9% (45.8 to 52.0) against `model=default`'s
/// 51.6% and the counters' table kept; the duel at once lost to three Penny Badger `counter`s
/// (39.0% against 50.0% at twice, 200 rotated games; docs/skill.md).
pub(super) const SHRUNK_TRUST_TIMES: f64 = 2.0;

impl<G: Game> Ismcts<G> {
    /// Trust in the default bot: its choice (the root index `prior`) stays unless the most
    /// visited root child `best`'s mean beats it by more than `trust` standard errors (shares
    /// read as Bernoulli trials; with `model=auto` on means shrunk toward the pack,
    /// [`Ismcts::trusted_shortlist`]).
    #[inline(always)]
    pub(super) fn trusted(&self, best: usize, root_count: u32) -> usize {
        if self.belief.is_some() {
            return self.trusted_shortlist(best as u32, root_count) as usize;
        }
        if self.params.trust > 0.0 && self.prior != NONE && best as u32 != self.prior {
            let p = self.root_children[self.prior as usize];
            if p != NONE {
                let (a, b) = (&self.nodes[self.root_children[best] as usize], &self.nodes[p as usize]);
                let (na, nb) = (a.visits.max(1) as f64, b.visits.max(1) as f64);
                let (ma, mb) = (a.reward / na, b.reward / nb);
                let se = (ma * (1.0 - ma) / na + mb * (1.0 - mb) / nb).sqrt().max(1e-9);
                if ma - mb <= self.params.trust * se {
                    return self.prior as usize;
                }
            }
        }
        best
    }

    /// `model=auto`'s trust (`bar=1`: [`Ismcts::trusted_luck_bar`]); with `bar=0` read from
    /// the evidence: the most visited proposal (the shortlist
    /// of the game's bots) replaces the prior (the choice of the game's bot that has won most
    /// as this seat in the search), and then the most visited root child `best` replaces that,
    /// when its mean, shrunk toward the pack of every searched root child ([`Shrinkage`]),
    /// beats the other's by more than `trust` posterior standard errors.
    ///
    /// Why shrunk: a Penny Badger turn has hundreds of look-alike discards, each scored by a
    /// handful of won-or-lost games, and the most visited one is then mostly the luckiest:
    /// the plain test let a lucky bluff replace the honest claim against card counters. A
    /// fixed bar for that luck (twice `sqrt(2 ln k)` standard errors for k legal actions)
    /// kept the claim but also the prior where the search's pick truly was better: Flower
    /// Power's mixed table 53.6% against `model=default`'s 66.3% (1,000 rotated games).
    /// Shrinking by the spread the means show beyond their noise asks for a wide margin only
    /// where the actions look alike: 75.4% there (docs/skill.md).
    pub(super) fn trusted_shortlist(&self, best: u32, root_count: u32) -> u32 {
        if self.params.trust <= 0.0 || self.prior == NONE || self.root_children[self.prior as usize] == NONE {
            return best;
        }
        let node = |i: u32| &self.nodes[self.root_children[i as usize] as usize];
        if self.params.bar == Bar::Luck {
            return self.trusted_luck_bar(best, root_count);
        }
        let shrinkage = Shrinkage::of(self.root_children.iter().filter(|&&c| c != NONE).map(|&c| &self.nodes[c as usize]));
        let beats = |a: u32, b: u32| shrinkage.beats(node(a), node(b), SHRUNK_TRUST_TIMES * self.params.trust);
        let mut choice = self.prior;
        let top = self.proposals.iter().copied().filter(|&p| self.root_children[p as usize] != NONE).max_by_key(|&p| (node(p).visits, std::cmp::Reverse(p)));
        if let Some(p) = top
            && p != choice
            && beats(p, choice)
        {
            choice = p;
        }
        if best != choice && beats(best, choice) {
            choice = best;
        }
        choice
    }

    /// `bar=1`'s trust (the default): the most visited proposal replaces the prior if it beats
    /// it by more than [`LUCK_TIMES`] the luck of the best of the few proposals; the most
    /// visited action outside the shortlist replaces that one only if it beats it by more than
    /// that many times the luck of the best of all `root_count` actions.
    pub(super) fn trusted_luck_bar(&self, best: u32, root_count: u32) -> u32 {
        let node = |i: u32| &self.nodes[self.root_children[i as usize] as usize];
        let mut choice = self.prior;
        let top = self.proposals.iter().copied().filter(|&p| self.root_children[p as usize] != NONE).max_by_key(|&p| (node(p).visits, std::cmp::Reverse(p)));
        if let Some(p) = top
            && p != choice
            && beats_by_more_than_luck(node(p), node(choice), self.params.trust, self.proposals.len() as u32, LUCK_TIMES)
        {
            choice = p;
        }
        if best != choice && !self.proposals.contains(&best) && beats_by_more_than_luck(node(best), node(choice), self.params.trust, root_count, LUCK_TIMES) {
            choice = best;
        }
        choice
    }
}

/// The trust test of `model=auto`: whether the most visited root child `best` beats the
/// default bot's choice `prior` by more than `trust` standard errors times `times` the luck of
/// the best of `actions` noisy means ([`LUCK_TIMES`]) (`sqrt(2 ln actions)` is the expected maximum of that
/// many standard normal draws). Means are smoothed by one win and one loss before their
/// variance is taken, so a child whose few visits all won does not claim a standard error of 0.
///
/// Why: a Penny Badger turn has hundreds of legal discards and a search of 1,000 iterations
/// scores each by a handful of won-or-lost games; the most visited one is then mostly the
/// luckiest, and the plain test (`model=default`) let a lucky bluff replace the honest claim
/// about every other turn against card counters. Once the luck, against three `counter`
/// (40 rotated games) the search won 22.5%; twice, 50% (docs/skill.md, [`LUCK_TIMES`]).
fn beats_by_more_than_luck<A>(best: &Node<A>, prior: &Node<A>, trust: f64, actions: u32, times: f64) -> bool {
    let smoothed = |n: &Node<A>| {
        let visits = n.visits as f64;
        ((n.reward + 1.0) / (visits + 2.0), visits.max(1.0))
    };
    let ((ma, na), (mb, nb)) = (smoothed(best), smoothed(prior));
    let se = (ma * (1.0 - ma) / na + mb * (1.0 - mb) / nb).sqrt();
    let luck = (2.0 * f64::from(actions.max(2)).ln()).sqrt().max(1.0);
    let (raw_a, raw_b) = (best.reward / na, prior.reward / nb);
    raw_a - raw_b > times * trust * luck * se
}

/// `model=auto`'s reading of the root's luck: the searched children's win shares as noisy
/// estimates of their true values (each with the variance the pack's pooled rate gives a mean
/// of that many visits), and the spread of those values beyond the noise, `tau2`: the random-effects
/// estimate of DerSimonian & Laird (1986, "Meta-analysis in clinical trials"), from
/// Cochran's Q of the children's means about their precision-weighted mean. A child's
/// posterior mean is its own mean pulled toward the pack's `centre` by `v / (v + tau2)` (its
/// variance `v` against the spread): when the children look alike (`tau2` near 0) every one
/// falls back to the pack, so the luckiest of many is not a plan; when they truly differ the
/// well-visited keep their means. Empirical Bayes: no constant to tune per game.
///
/// Why the pooled variance: means smoothed by one win and one loss (the estimator before)
/// pull a child of one or two visits most of the way to one half, so the dozens of such
/// children UCB1 leaves at a Flower Power root added almost nothing to Q, which then fell
/// under its k - 1 expected and read every spread as none: the prior kept its place where
/// the search's pick was truly better (three Flower Power `greedy`s: 44.9% at `trust=2`,
/// 48.9% with the pooled variance, 1,000 rotated games; docs/skill.md).
#[derive(Clone, Copy, Debug)]
struct Shrinkage {
    tau2: f64,
    centre: f64,
    /// The pack's common variance of one iteration's share (pooled rate `p(1-p)`): a child's
    /// mean after `n` visits varies by `spread / n` if it is no better than the pack.
    spread: f64,
}

impl Shrinkage {
    /// A child's mean and its squared standard error under the pack's common variance.
    pub(super) fn estimate<A>(&self, n: &Node<A>) -> (f64, f64) {
        let visits = f64::from(n.visits.max(1));
        (n.reward / visits, self.spread / visits)
    }

    /// The shrinkage read from `children` (those with at least one visit count).
    pub(super) fn of<'n, A: 'n>(children: impl Iterator<Item = &'n Node<A>>) -> Self {
        let visited: Vec<&Node<A>> = children.filter(|n| n.visits > 0).collect();
        let (visits, reward) = visited.iter().fold((0.0, 0.0), |(v, r), n| (v + f64::from(n.visits), r + n.reward));
        // The pooled rate, smoothed by one win and one loss so that a pack that always won
        // (or lost) still has some noise.
        let pooled = (reward + 1.0) / (visits + 2.0);
        let mut shrinkage = Shrinkage { tau2: 0.0, centre: pooled, spread: pooled * (1.0 - pooled) };
        let estimates: Vec<(f64, f64)> = visited.iter().map(|n| shrinkage.estimate(n)).collect();
        let k = estimates.len() as f64;
        let (w, wm, w2) = estimates.iter().fold((0.0, 0.0, 0.0), |(w, wm, w2), &(m, v)| (w + 1.0 / v, wm + m / v, w2 + 1.0 / (v * v)));
        if k < 2.0 || w <= 0.0 {
            return shrinkage;
        }
        let fixed = wm / w;
        let q: f64 = estimates.iter().map(|&(m, v)| (m - fixed).powi(2) / v).sum();
        let tau2 = ((q - (k - 1.0)) / (w - w2 / w)).max(0.0);
        let (rw, rwm) = estimates.iter().fold((0.0, 0.0), |(a, b), &(m, v)| (a + 1.0 / (v + tau2), b + m / (v + tau2)));
        shrinkage.tau2 = tau2;
        shrinkage.centre = rwm / rw;
        shrinkage
    }

    /// A child's posterior mean and variance.
    pub(super) fn posterior<A>(&self, n: &Node<A>) -> (f64, f64) {
        let (mean, v) = self.estimate(n);
        let keep = self.tau2 / (self.tau2 + v);
        (self.centre + (mean - self.centre) * keep, v * keep)
    }

    /// Whether child `a`'s posterior mean beats `b`'s by more than `trust` posterior standard
    /// errors of the difference (and by something: two children shrunk to the pack tie).
    pub(super) fn beats<A>(&self, a: &Node<A>, b: &Node<A>, trust: f64) -> bool {
        let ((ma, va), (mb, vb)) = (self.posterior(a), self.posterior(b));
        ma - mb > trust * (va + vb).sqrt() && ma > mb
    }
}

/// Whether `pairs` paired differences (their sum and sum of squares) lead by more than
/// `times` standard errors of their mean, and by something (a duel of identical playouts,
/// every difference 0, is no lead).
pub(super) fn paired_lead_holds(sum: f64, squares: f64, pairs: u32, times: f64) -> bool {
    let n = f64::from(pairs);
    let mean = sum / n;
    let variance = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
    mean > 0.0 && mean > times * (variance / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::super::tree::{NONE, Node};
    use super::{Shrinkage, paired_lead_holds};

    /// Sum and sum of squares of `wins` differences of +1, `losses` of -1 (the rest 0).
    pub(super) fn pairs(wins: u32, losses: u32) -> (f64, f64) {
        (f64::from(wins) - f64::from(losses), f64::from(wins + losses))
    }

    #[test]
    pub(super) fn a_duel_of_identical_playouts_is_no_lead() {
        let (sum, squares) = pairs(0, 0);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
    }

    #[test]
    pub(super) fn a_duel_lead_within_its_noise_does_not_hold() {
        // 30 won, 20 lost, 50 the same: a lead of 0.1 with a standard error of 0.07.
        let (sum, squares) = pairs(30, 20);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
        assert!(paired_lead_holds(sum, squares, 100, 1.0), "it holds at one standard error");
        let (sum, squares) = pairs(50, 50);
        assert!(!paired_lead_holds(sum, squares, 100, 2.0));
    }

    #[test]
    pub(super) fn a_clear_duel_lead_holds() {
        // 40 won, 10 lost, 50 the same: a lead of 0.3 with a standard error of 0.064.
        let (sum, squares) = pairs(40, 10);
        assert!(paired_lead_holds(sum, squares, 100, 2.0));
        let (sum, squares) = pairs(100, 0);
        assert!(paired_lead_holds(sum, squares, 100, 2.0));
    }

    pub(super) fn child(visits: u32, reward: f64) -> Node<u8> {
        Node { action: Some(0), mover: 0, parent: 0, visits, available: visits, reward, first_child: NONE, next_sibling: NONE }
    }

    /// Thirty look-alike actions (all truly 40%), one of them lucky: the lucky one's lead over
    /// the prior is what the pack's noise explains, so it does not replace the prior; a plain
    /// one-standard-error test would have let it.
    #[test]
    pub(super) fn the_luckiest_of_look_alike_actions_does_not_beat_the_prior() {
        let mut children: Vec<Node<u8>> = (0..30).map(|i| child(30, 12.0 + f64::from(i % 5) - 2.0)).collect();
        children.push(child(40, 24.0)); // 60% after 40 games: the lucky one
        let prior = child(60, 24.0); // 40%
        children.push(prior);
        let shrinkage = Shrinkage::of(children.iter());
        let lucky = children[30];
        let (plain_lucky, plain_prior) = (shrinkage.estimate(&lucky), shrinkage.estimate(&prior));
        assert!(plain_lucky.0 - plain_prior.0 > (plain_lucky.1 + plain_prior.1).sqrt(), "the plain test would switch");
        assert!(!shrinkage.beats(&lucky, &prior, 1.0));
    }

    /// A real spread among the well-visited children is still read as one when dozens of
    /// children have a visit or two (as UCB1 leaves them): the one-visit children count as
    /// the noise they are, not as a pack that agrees.
    #[test]
    pub(super) fn children_of_one_visit_do_not_hide_a_real_spread() {
        let mut children: Vec<Node<u8>> = (0..40).map(|i| child(1 + i % 2, f64::from(i % 3 == 0))).collect();
        children.push(child(400, 240.0)); // 60%
        children.push(child(300, 120.0)); // 40%: the prior
        let shrinkage = Shrinkage::of(children.iter());
        assert!(shrinkage.tau2 > 0.001, "spread read as {}", shrinkage.tau2);
        assert!(shrinkage.beats(&children[40], &children[41], 1.0));
    }

    /// Actions that truly differ (spread far beyond their noise): the best keeps its lead.
    #[test]
    pub(super) fn an_action_that_truly_stands_out_beats_the_prior() {
        let children = [child(300, 240.0), child(200, 80.0), child(150, 30.0), child(100, 10.0), child(250, 125.0)];
        let shrinkage = Shrinkage::of(children.iter());
        assert!(shrinkage.tau2 > 0.01);
        assert!(shrinkage.beats(&children[0], &children[4], 1.0));
        assert!(!shrinkage.beats(&children[4], &children[0], 1.0));
    }
}
