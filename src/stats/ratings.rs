//! Ratings on one scale from every pairing of a ladder: a Bradley–Terry / Luce model fitted
//! to all games at once. In a game of one bot A against `n - 1` copies of bot B, the winner
//! is A with probability `pi_A / (pi_A + (n - 1) pi_B)` (Luce's choice axiom; for two seats
//! the Bradley–Terry model). Fitted by minorisation–maximisation (Hunter 2004, "MM
//! algorithms for generalized Bradley–Terry models"), with one imaginary win and one
//! imaginary loss of every bot against a bot of strength 1 (Newman 2023) so a bot that never
//! wins still gets a finite rating. Intervals from the Fisher information with the first
//! bot as the anchor (rating 0). Reported on the Elo scale: 400 log10(pi / pi_anchor).
//! (No well-kept Rust crate fits this batch model with intervals; it is 80 lines.)

use serde::Serialize;

/// The games of one pairing: bot `a` once against `copies` copies of bot `b`.
#[derive(Clone, Copy, Debug)]
pub struct Pairing {
    /// The single bot.
    pub a: usize,
    /// The bot of the other seats.
    pub b: usize,
    /// Copies of `b` at the table (seats - 1).
    pub copies: u32,
    /// Games played.
    pub games: f64,
    /// Games won by `a` (ties shared); the rest of the win credit went to `b`'s copies.
    pub a_wins: f64,
    /// Games won by one of `b`'s copies.
    pub b_wins: f64,
}

/// One bot's fitted rating.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Rating {
    /// Elo-scale rating, the anchor (first bot) at 0.
    pub elo: f64,
    /// 95% interval.
    pub ci95: [f64; 2],
}

/// Fits ratings for `bots` bots from `pairings`.
pub fn fit(bots: usize, pairings: &[Pairing]) -> Vec<Rating> {
    let mut pi = vec![1.0f64; bots];
    for _ in 0..10_000 {
        let mut next = vec![0.0; bots];
        for i in 0..bots {
            // The prior: one win and one loss against a bot of strength 1.
            let mut wins = 1.0;
            let mut denominator = 2.0 / (pi[i] + 1.0);
            for p in pairings {
                let total = pi[p.a] + p.copies as f64 * pi[p.b];
                let decided = p.a_wins + p.b_wins;
                if p.a == i {
                    wins += p.a_wins;
                    denominator += decided / total;
                }
                if p.b == i {
                    wins += p.b_wins;
                    denominator += decided * p.copies as f64 / total;
                }
            }
            next[i] = wins / denominator;
        }
        let change = next.iter().zip(&pi).map(|(n, o)| (n / o).ln().abs()).fold(0.0, f64::max);
        pi = next;
        if change < 1e-10 {
            break;
        }
    }
    // Fisher information of theta = ln pi: each pairing is a binomial "A wins" with
    // p = pi_A / (pi_A + copies pi_B), which depends on theta_A - theta_B.
    let mut info = vec![vec![0.0; bots]; bots];
    for i in 0..bots {
        let p = pi[i] / (pi[i] + 1.0);
        info[i][i] += 2.0 * p * (1.0 - p);
    }
    for q in pairings {
        let p = pi[q.a] / (pi[q.a] + q.copies as f64 * pi[q.b]);
        let w = (q.a_wins + q.b_wins) * p * (1.0 - p);
        info[q.a][q.a] += w;
        info[q.b][q.b] += w;
        info[q.a][q.b] -= w;
        info[q.b][q.a] -= w;
    }
    let variance = anchored_variances(&info);
    let scale = 400.0 / std::f64::consts::LN_10;
    (0..bots)
        .map(|i| {
            let theta = (pi[i] / pi[0]).ln();
            let half = 1.96 * variance[i].sqrt();
            Rating { elo: scale * theta, ci95: [scale * (theta - half), scale * (theta + half)] }
        })
        .collect()
}

/// Variances of theta_i - theta_0: the inverse of the information with bot 0's row and
/// column removed (Gauss–Jordan; a handful of bots).
fn anchored_variances(info: &[Vec<f64>]) -> Vec<f64> {
    let n = info.len();
    if n <= 1 {
        return vec![0.0; n];
    }
    let m = n - 1;
    let mut a: Vec<Vec<f64>> = (0..m).map(|r| (0..m).map(|c| info[r + 1][c + 1]).chain((0..m).map(|c| if c == r { 1.0 } else { 0.0 })).collect()).collect();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs())).unwrap_or(col);
        a.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            return vec![f64::INFINITY; n];
        }
        for v in a[col].iter_mut() {
            *v /= d;
        }
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[col];
            if r != col && f != 0.0 {
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    std::iter::once(0.0).chain((0..m).map(|i| a[i][m + i].max(0.0))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_twice_as_strong_head_to_head_is_rated_about_120_points_higher() {
        // pi_1 = 2 pi_0: bot 1 wins 2/3 of two-seat games. 120.4 = 400 log10(2).
        let games = 30_000.0;
        let pairings = [
            Pairing { a: 1, b: 0, copies: 1, games, a_wins: games * 2.0 / 3.0, b_wins: games / 3.0 },
            Pairing { a: 0, b: 1, copies: 1, games, a_wins: games / 3.0, b_wins: games * 2.0 / 3.0 },
        ];
        let r = fit(2, &pairings);
        assert_eq!(r[0].elo, 0.0);
        assert!((r[1].elo - 120.4).abs() < 1.0, "{r:?}");
        assert!(r[1].ci95[0] < r[1].elo && r[1].elo < r[1].ci95[1] && r[1].ci95[1] - r[1].ci95[0] < 20.0, "{r:?}");
    }

    #[test]
    fn multi_seat_games_use_the_luce_model() {
        // 4 seats, one bot of strength 3 against three of strength 1: it wins 3/6 = 50%.
        let games = 40_000.0;
        let pairings = [
            Pairing { a: 1, b: 0, copies: 3, games, a_wins: games * 0.5, b_wins: games * 0.5 },
            Pairing { a: 0, b: 1, copies: 3, games, a_wins: games * 0.1, b_wins: games * 0.9 },
        ];
        let r = fit(2, &pairings);
        assert!((r[1].elo - 400.0 * 3f64.log10()).abs() < 10.0, "{r:?}");
    }
}
