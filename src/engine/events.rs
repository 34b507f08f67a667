//! Events of play: the [`EventLog`] the rules write to and the [`GameEvent`] trait that says
//! which seats see one.

use std::fmt::Display;

/// Where events go while a game is played: to the trace and to bots that listen.
/// Disabled logs cost one branch per event.
pub struct EventLog<E> {
    enabled: bool,
    events: Vec<E>,
}

impl<E> EventLog<E> {
    /// A log that records when `enabled`.
    pub fn new(enabled: bool) -> Self {
        EventLog { enabled, events: Vec::new() }
    }

    /// Whether events are being recorded; games may skip building costly events otherwise.
    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Records the event built by `make` when the log is enabled.
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> E) {
        if self.enabled {
            self.events.push(make());
        }
    }

    /// [`EventLog::emit`] in rules compiled twice, with and without events (`LOG`: whether
    /// this copy records; the caller picks the copy once from [`EventLog::enabled`]): the
    /// quiet copy holds no event code and no test of the flag.
    #[inline(always)]
    pub fn emit_if<const LOG: bool>(&mut self, make: impl FnOnce() -> E) {
        if LOG {
            self.emit(make);
        }
    }

    /// Takes the recorded events.
    pub fn drain(&mut self) -> std::vec::Drain<'_, E> {
        self.events.drain(..)
    }
}

/// One event of play, with who may see it (a bot only observes what its seat could see).
pub trait GameEvent: Display {
    /// Whether `seat` sees this event at a real table.
    fn visible_to(&self, seat: usize) -> bool;
}
