//! The search tree: nodes in one arena, selection and expansion (the root by index, the
//! seat's own widened nodes with `model=auto`, every other node by UCB1 over the actions legal
//! in the sample), and the back-up of every seat's share.

use super::super::rng::below;
use super::super::{EventLog, Game, GameRng, ToMove};
use super::Ismcts;

/// No node (an empty link, a root without a prior).
pub(super) const NONE: u32 = u32::MAX;

/// One tree node: the information set reached by `action` of `mover` from its parent.
#[derive(Clone, Copy)]
pub(super) struct Node<A> {
    pub(super) action: Option<A>,
    pub(super) mover: u8,
    pub(super) parent: u32,
    pub(super) visits: u32,
    pub(super) available: u32,
    pub(super) reward: f64,
    /// First child and next sibling (`NONE`: none): the children of a node without the
    /// legal actions (`model=auto`'s widened nodes walk only the children they have).
    pub(super) first_child: u32,
    pub(super) next_sibling: u32,
}

impl<G: Game> Ismcts<G> {
    /// The most visited root child; ties to the default bot's choice (a search too short to
    /// try every action once leaves every child one visit), then to the better mean reward,
    /// then to the first legal action (deterministic).
    #[inline(always)]
    pub(super) fn most_visited_root(&self) -> usize {
        let mut best = 0;
        let mut best_key = (0u32, false, f64::NEG_INFINITY);
        for (i, &child) in self.root_children.iter().enumerate() {
            if child == NONE {
                continue;
            }
            let n = &self.nodes[child as usize];
            let key = (n.visits, i as u32 == self.prior, n.reward / n.visits.max(1) as f64);
            if key.0 > best_key.0 || (key.0 == best_key.0 && (key.1, key.2) > (best_key.1, best_key.2)) {
                best_key = key;
                best = i;
            }
        }
        best
    }

    /// Selection at the root: its actions are the same in every sample, so children are
    /// found by index. Returns the chosen child and action, expanding one untried action
    /// while any is left (`true` in the third field).
    pub(super) fn select_at_root(&mut self, seat: usize, rng: &mut GameRng) -> (u32, G::Action, bool) {
        let count = self.root_untried.len();
        if count > 0 && self.widens(0, self.root_actions.len() - count) {
            let at = match self.root_untried.iter().position(|&i| i == self.prior) {
                Some(at) => at,
                None => match self.proposals.iter().find_map(|p| self.root_untried.iter().position(|i| i == p)) {
                    Some(at) => at,
                    None => below(count as u32, rng) as usize,
                },
            };
            let pick = self.root_untried.swap_remove(at) as usize;
            let action = self.root_actions[pick];
            for &c in &self.root_children {
                if c != NONE {
                    self.nodes[c as usize].available += 1;
                }
            }
            let child = self.add_child(0, seat, action);
            self.root_children[pick] = child;
            return (child, action, true);
        }
        let mut best = NONE;
        let mut best_score = f64::NEG_INFINITY;
        for (i, &c) in self.root_children.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let n = &mut self.nodes[c as usize];
            n.available += 1;
            let score = n.reward / n.visits as f64 + self.params.exploration * ((n.available as f64).ln() / n.visits as f64).sqrt();
            if score > best_score {
                best_score = score;
                best = i as u32;
            }
        }
        (self.root_children[best as usize], self.root_actions[best as usize], false)
    }

    /// Whether `node`, with `children` children, may expand one more: always with
    /// `model=default`; with `model=auto` while a root proposal is unexpanded, else while it
    /// has fewer than 1 + √visits children (progressive widening: a turn with hundreds of
    /// actions spends its iterations on a few, each then judged by many games, not one).
    pub(super) fn widens(&self, node: u32, children: usize) -> bool {
        if self.belief.is_none() {
            return true;
        }
        if node == 0 && self.proposals.iter().any(|&p| self.root_children[p as usize] == NONE) {
            return true;
        }
        children < 1 + (self.nodes[node as usize].visits as f64).sqrt() as usize
    }

    /// `model=auto`'s step at one of the seat's own nodes below the root: UCB1 over the
    /// children legal in this sample (walked by their links, not by listing every legal
    /// action), expanding while the node widens ([`Ismcts::widens`]): first the seat's policy's
    /// choice, then a random untried action. Returns the child, its action and whether it
    /// was expanded.
    pub(super) fn select_own_widened(&mut self, game: &G, state: &G::State, node: u32, seat: usize, rng: &mut GameRng) -> (u32, G::Action, bool) {
        let view = game.view(state, seat);
        let (mut children, mut best, mut best_score) = (0usize, NONE, f64::NEG_INFINITY);
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let n = self.nodes[c as usize];
            if n.mover as usize == seat {
                children += 1;
                if game.is_legal(&view, &n.action.expect("a child has an action")) {
                    let n = &mut self.nodes[c as usize];
                    n.available += 1;
                    let score = n.reward / n.visits as f64 + self.params.exploration * ((n.available as f64).ln() / n.visits.max(1) as f64).sqrt();
                    if score > best_score {
                        best_score = score;
                        best = c;
                    }
                }
            }
            c = n.next_sibling;
        }
        if best == NONE || self.widens(node, children) {
            let choice = self.own_move(game, &view, seat, rng);
            let action = if self.child(node, seat, choice).is_none() {
                Some(choice)
            } else {
                self.legal.clear();
                game.legal_actions(&view, &mut self.legal);
                self.untried.clear();
                for &a in &self.legal {
                    if self.child(node, seat, a).is_none() {
                        self.untried.push(a);
                    }
                }
                (!self.untried.is_empty()).then(|| self.untried[below(self.untried.len() as u32, rng) as usize])
            };
            if let Some(action) = action {
                return (self.add_child(node, seat, action), action, true);
            }
        }
        (best, self.nodes[best as usize].action.expect("a child has an action"), false)
    }

    /// Selection and expansion: walks the tree from the root on `state`, applying each
    /// chosen action, until an action is expanded or the game ends. Returns the node reached
    /// and the number of actions applied.
    #[inline(always)]
    pub(super) fn select_and_expand(&mut self, game: &G, state: &mut G::State, searcher: usize, rng: &mut GameRng, log: &mut EventLog<G::Event>) -> (u32, u32) {
        let mut node = 0u32;
        let mut steps = 0u32;
        while let ToMove::Seat(seat) = game.to_move(state) {
            if self.model_opponents && seat != searcher && node != 0 {
                // The opponent model chooses; the tree only records what it chose, so the
                // searcher's later information sets tell its choices apart.
                let action = {
                    let view = game.view(state, seat);
                    self.opponent(seat).decide(game, &view, rng)
                };
                node = match self.child(node, seat, action) {
                    Some(c) => c,
                    None => self.add_child(node, seat, action),
                };
                game.apply(state, seat, action, rng, log);
                steps += 1;
                continue;
            }
            // The root (its actions by index) and, with `model=auto`, the seat's own widened
            // nodes: each picks a child and says whether it was just expanded.
            if node == 0 || (self.belief.is_some() && seat == searcher) {
                let (child, action, expanded) = if node == 0 { self.select_at_root(seat, rng) } else { self.select_own_widened(game, state, node, seat, rng) };
                node = child;
                game.apply(state, seat, action, rng, log);
                steps += 1;
                if expanded {
                    break;
                }
                continue;
            }
            self.legal.clear();
            {
                let view = game.view(state, seat);
                game.legal_actions(&view, &mut self.legal);
            }
            self.untried.clear();
            let mut best = NONE;
            let mut best_score = f64::NEG_INFINITY;
            for &action in &self.legal {
                match self.child(node, seat, action) {
                    Some(c) => {
                        let n = &mut self.nodes[c as usize];
                        n.available += 1;
                        let score = n.reward / n.visits as f64 + self.params.exploration * ((n.available as f64).ln() / n.visits as f64).sqrt();
                        if score > best_score {
                            best_score = score;
                            best = c;
                        }
                    }
                    None => self.untried.push(action),
                }
            }
            if !self.untried.is_empty() {
                let action = self.untried[below(self.untried.len() as u32, rng) as usize];
                node = self.add_child(node, seat, action);
                game.apply(state, seat, action, rng, log);
                steps += 1;
                break;
            }
            node = best;
            let action = self.nodes[node as usize].action.expect("a child has an action");
            game.apply(state, seat, action, rng, log);
            steps += 1;
        }
        (node, steps)
    }

    /// Back-up of every seat's win share ([`Ismcts::score`]) along the path from `node` to
    /// the root.
    #[inline(always)]
    pub(super) fn back_up(&mut self, game: &G, state: &G::State, mut node: u32, finished: bool) {
        self.score(game, state, finished);
        if !self.own_players.is_empty() {
            let me = self.nodes[0].mover as usize;
            let stats = &mut self.own_stats[self.own_drawn];
            stats.0 += 1;
            stats.1 += self.shares[me];
        }
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.reward += self.shares.get(n.mover as usize).copied().unwrap_or(0.0);
            node = n.parent;
        }
    }

    /// The child of `node` for `mover` playing `action`, if the tree has it.
    #[inline]
    pub(super) fn child(&self, node: u32, mover: usize, action: G::Action) -> Option<u32> {
        self.children.get(&(node, mover as u8, action)).copied()
    }

    /// Adds the child of `node` for `mover` playing `action` (available once, not yet visited).
    pub(super) fn add_child(&mut self, node: u32, mover: usize, action: G::Action) -> u32 {
        let id = self.nodes.len() as u32;
        let sibling = self.nodes[node as usize].first_child;
        self.nodes.push(Node {
            action: Some(action),
            mover: mover as u8,
            parent: node,
            visits: 0,
            available: 1,
            reward: 0.0,
            first_child: NONE,
            next_sibling: sibling,
        });
        self.nodes[node as usize].first_child = id;
        if node != 0 {
            self.children.insert((node, mover as u8, action), id);
        }
        id
    }
}
