//! Sound effects, synthesized rather than read from files: a short wooden knock for a marble
//! dropping into its hole and a rising chord at the end of a game. Off unless the player turns
//! them on; a machine without a sound device plays nothing and says so once.

use std::num::NonZero;

use kulami_core::Position;
use rodio::buffer::SamplesBuffer;

/// The sample rate of the effects.
pub const SAMPLE_RATE: u32 = 44_100;

/// A sound the game makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A marble placed.
    Marble,
    /// The game is over.
    GameEnd,
}

/// The effect that going from `before` to `after` calls for: a marble for a move played
/// forward, the chord when that move ends the game, nothing for undo, stepping back or a new game.
#[must_use]
pub fn effect_between(before: &Position, after: &Position) -> Option<Effect> {
    let same_game = before.layout() == after.layout() && after.placements().starts_with(before.placements());
    if !same_game || after.ply() != before.ply() + 1 {
        return None;
    }
    Some(if after.is_game_over() { Effect::GameEnd } else { Effect::Marble })
}

/// The effect's samples, mono, in -1..1, fading to silence.
#[must_use]
pub fn samples(effect: Effect) -> Vec<f32> {
    let rate = SAMPLE_RATE as f32;
    let tone = |frequencies: &[f32], seconds: f32, decay: f32| -> Vec<f32> {
        let count = (seconds * rate) as usize;
        (0..count)
            .map(|index| {
                let t = index as f32 / rate;
                let envelope = (-decay * t).exp() * (1.0 - index as f32 / count as f32);
                let wave: f32 = frequencies.iter().map(|f| (std::f32::consts::TAU * f * t).sin()).sum::<f32>()
                    / frequencies.len() as f32;
                0.5 * envelope * wave
            })
            .collect()
    };
    match effect {
        // A low knock with a touch of its overtone, gone in a tenth of a second.
        Effect::Marble => tone(&[420.0, 1130.0], 0.12, 40.0),
        // C, E and G together, ringing out.
        Effect::GameEnd => tone(&[523.25, 659.25, 783.99], 0.9, 4.0),
    }
}

/// The sound output, opened on the first effect.
#[derive(Default)]
pub struct Speaker {
    sink: Option<rodio::MixerDeviceSink>,
    /// Why the output could not be opened, once it failed (it is not tried again).
    failed: Option<String>,
}

impl std::fmt::Debug for Speaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Speaker").field("open", &self.sink.is_some()).field("failed", &self.failed).finish()
    }
}

impl Speaker {
    /// Plays `effect`.
    ///
    /// # Panics
    /// Never: one channel and the sample rate are not zero.
    ///
    /// # Errors
    /// A message the first time the machine's sound output cannot be opened (later calls are
    /// silent: there is nothing more to say).
    pub fn play(&mut self, effect: Effect) -> Result<(), String> {
        if self.failed.is_some() {
            return Ok(());
        }
        if self.sink.is_none() {
            match rodio::DeviceSinkBuilder::open_default_sink() {
                Ok(mut sink) => {
                    sink.log_on_drop(false);
                    self.sink = Some(sink);
                }
                Err(error) => {
                    let message = format!("Sounds are on, but this machine has no sound output ({error}).");
                    self.failed = Some(message.clone());
                    return Err(message);
                }
            }
        }
        if let Some(sink) = &self.sink {
            let one = NonZero::new(1).expect("one channel");
            let rate = NonZero::new(SAMPLE_RATE).expect("a sample rate");
            sink.mixer().add(SamplesBuffer::new(one, rate, samples(effect)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::{Layout, Move};
    use std::sync::Arc;

    #[test]
    fn effects_are_short_quiet_enough_and_end_in_silence() {
        for (effect, longest) in [(Effect::Marble, 0.2), (Effect::GameEnd, 1.0)] {
            let sound = samples(effect);
            assert!(!sound.is_empty() && sound.len() as f32 / SAMPLE_RATE as f32 <= longest, "{effect:?}");
            assert!(sound.iter().all(|sample| sample.abs() <= 0.5), "{effect:?} clips");
            assert!(sound.iter().any(|sample| sample.abs() > 0.1), "{effect:?} is audible");
            assert!(sound.last().unwrap().abs() < 1e-3, "{effect:?} ends in a click");
        }
    }

    #[test]
    fn a_marble_played_sounds_and_the_last_one_rings_the_end() {
        let layout = Arc::new(Layout::parse("AAB/CCB").unwrap());
        let at = |moves: &[&str]| {
            let moves: Vec<Move> = moves.iter().map(|name| name.parse().unwrap()).collect();
            Position::from_moves(layout.clone(), &moves).unwrap()
        };
        assert_eq!(effect_between(&at(&[]), &at(&["a1"])), Some(Effect::Marble));
        assert_eq!(effect_between(&at(&["a1", "a2"]), &at(&["a1", "a2", "c2"])), Some(Effect::GameEnd));
        assert_eq!(effect_between(&at(&["a1"]), &at(&[])), None, "an undo is silent");
        assert_eq!(effect_between(&at(&["a1"]), &at(&["a1"])), None);
        let other = Position::new(Arc::new(Layout::parse("AABB").unwrap()));
        assert_eq!(effect_between(&at(&[]), &other), None, "a new board is silent");
        let mut next = other.clone();
        next.play("a1".parse().unwrap()).unwrap();
        assert_eq!(effect_between(&at(&["a2"]), &next), None, "another game's move is silent");
    }
}
