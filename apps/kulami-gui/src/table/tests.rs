use std::sync::Arc;
use std::time::Duration;

use super::gorami::GoramiSetup;
use super::kalah::KalahSetup;
use super::*;

fn no_wake() -> Wake {
    Arc::new(|| {})
}

/// Drives `session` until `done` holds of it (the engine's thread answers within seconds).
fn drive_until<R: TableRules>(session: &mut Session<R>, done: impl Fn(&Session<R>) -> bool) {
    for _ in 0..4000 {
        session.drive(true, &no_wake());
        if done(session) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("the session never got there: {session:?}");
}

fn kalah_moves(text: &str) -> Vec<::kalah::Move> {
    ::kalah::parse_moves(text).unwrap()
}

#[test]
fn a_person_plays_the_engine_which_answers_in_the_background() {
    let mut session = Session::new(KalahSetup::default(), [Seat::Person, Seat::Engine(1)]);
    assert!(session.person_to_move());
    // Pit 3 of Kalah(6,4) ends in the store: the person sows again.
    assert!(session.play(::kalah::Move::Pit(3)));
    assert!(session.person_to_move());
    assert!(session.play(::kalah::Move::Pit(6)));
    assert!(!session.person_to_move());
    assert!(!session.play(::kalah::Move::Pit(1)), "not the person's turn");
    assert_eq!(session.message(), Some("It is not your turn."));
    drive_until(&mut session, Session::person_to_move);
    assert!(session.moves().len() >= 3, "the engine sowed: {:?}", session.moves());
    let mut replayed = KalahSetup::default().start();
    for &mv in session.moves() {
        replayed.play(mv).unwrap();
    }
    assert_eq!(*session.position(), replayed);
}

#[test]
fn an_illegal_move_is_refused_with_the_rules_reason_and_changes_nothing() {
    let mut session = Session::new(KalahSetup::default(), [Seat::Person, Seat::Person]);
    session.play(::kalah::Move::Pit(3));
    let before = *session.position();
    assert!(!session.play(::kalah::Move::Pit(3)));
    assert_eq!(session.message(), Some("South's pit 3 is empty"));
    assert_eq!(*session.position(), before);
    assert!(!session.play(::kalah::Move::Swap));
    assert!(session.message().is_some_and(|text| text.starts_with(char::is_uppercase)));
}

#[test]
fn undo_against_the_engine_goes_back_to_the_persons_turn() {
    // The engine begins: undo takes back the person's move and the engine's before it, and then
    // there is nothing a person played to undo.
    let mut session = Session::new(GoramiSetup::Triangle, [Seat::Engine(1), Seat::Person]);
    drive_until(&mut session, Session::person_to_move);
    assert_eq!(session.moves().len(), 1);
    let legal = session.position().legal_moves();
    assert!(session.play(legal[0]));
    drive_until(&mut session, Session::person_to_move);
    assert_eq!(session.moves().len(), 3);
    session.undo();
    assert_eq!(session.moves().len(), 1, "back to the person's first turn");
    assert!(session.person_to_move());
    session.undo();
    assert!(session.moves().is_empty());
    // The engine is to move again and moves again.
    drive_until(&mut session, Session::person_to_move);
    session.restart(GoramiSetup::Triangle, [Seat::Person, Seat::Person]);
    session.undo();
    assert_eq!(session.message(), Some("Nothing to undo."));
}

#[test]
fn an_answer_for_a_position_left_is_dropped_not_played() {
    // The person moves, the engine starts thinking, and the person takes the move back before
    // the answer is applied (whether or not it has arrived): the answer is for a position no
    // longer on the board, and nothing is played.
    let mut session = Session::new(GoramiSetup::Triangle, [Seat::Person, Seat::Engine(1)]);
    assert!(session.play("1@1".parse().unwrap()));
    session.drive(true, &no_wake());
    assert!(session.thinking());
    std::thread::sleep(Duration::from_millis(200));
    session.undo();
    session.drive(true, &no_wake());
    assert!(session.moves().is_empty(), "{:?}", session.moves());
    assert!(!session.thinking(), "the person is to move");
}

#[test]
fn the_engine_waits_while_the_display_shows_the_last_move() {
    let mut session = Session::new(GoramiSetup::Triangle, [Seat::Engine(1), Seat::Engine(1)]);
    for _ in 0..20 {
        session.drive(false, &no_wake());
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(!session.thinking() && session.moves().is_empty());
    drive_until(&mut session, |session| !session.moves().is_empty());
}

#[test]
fn hints_rank_the_persons_moves_for_the_position_on_the_board() {
    let mut session = Session::new(KalahSetup { pits: 4, seeds: 3, ..KalahSetup::default() }, [Seat::Person; 2]);
    session.drive(true, &no_wake());
    assert!(session.hints().is_empty(), "hints are off");
    session.show_hints(true);
    drive_until(&mut session, |session| !session.hints().is_empty());
    let hints = session.hints().to_vec();
    assert_eq!(hints.len(), 3);
    let legal = session.position().legal_moves();
    assert!(hints.iter().all(|(mv, _)| legal.contains(mv)));
    assert!(hints.windows(2).all(|pair| pair[0].1 >= pair[1].1), "best first: {hints:?}");
    // After a move the old hints are not shown for the new position.
    session.play(hints[0].0);
    assert!(session.hints().iter().all(|hint| !hints.contains(hint)) || session.hints().is_empty());
    session.show_hints(false);
    assert!(session.hints().is_empty());
}

#[test]
fn an_engine_that_answers_nothing_says_so_once_and_is_not_asked_again() {
    let mut session = Session::new(GoramiSetup::Triangle, [Seat::Engine(1), Seat::Person]);
    let position = *session.position();
    session.engine = Some(Task::lost(position));
    session.drive(true, &no_wake());
    assert!(session.message().is_some_and(|text| text.contains("stopped")));
    assert!(!session.thinking(), "not asked again for the same position");
    session.drive(true, &no_wake());
    assert!(!session.thinking());
}

#[test]
fn a_finished_game_says_who_won_and_the_score() {
    // Kalah(4,1) played to the end between two people.
    let mut session = Session::new(KalahSetup { pits: 4, seeds: 1, ..KalahSetup::default() }, [Seat::Person; 2]);
    while let Some(&mv) = session.position().legal_moves().first() {
        assert!(session.play(mv));
    }
    let position = *session.position();
    let result = session.result().expect("the game is over");
    let south = position.store(::kalah::Side::South);
    let north = position.store(::kalah::Side::North);
    assert!(result.ends_with(&format!("Stores: South {south}, North {north}.")), "{result}");
    let verdict = match south.cmp(&north) {
        std::cmp::Ordering::Greater => "South wins.",
        std::cmp::Ordering::Less => "North wins.",
        std::cmp::Ordering::Equal => "A draw.",
    };
    assert!(result.starts_with(verdict), "{result}");
    assert!(!session.play(::kalah::Move::Pit(1)));
    assert_eq!(session.message(), Some("The game is over."));
    // Against the engine the person is "you".
    let mut against =
        Session::new(KalahSetup { pits: 4, seeds: 1, ..KalahSetup::default() }, [Seat::Person, Seat::Engine(2)]);
    for mv in kalah_moves("4") {
        against.play(mv);
    }
    drive_until(&mut against, |session| session.result().is_some() || session.person_to_move());
    while let Some(&mv) = against.position().legal_moves().first() {
        if against.person_to_move() {
            against.play(mv);
        }
        drive_until(&mut against, |session| session.result().is_some() || session.person_to_move());
    }
    let result = against.result().unwrap();
    assert!(
        result.contains("You (South)") || result.contains("Level 2 (North)") || result.starts_with("A draw"),
        "{result}"
    );
}

#[test]
fn table_work_crosses_as_json_and_refuses_a_game_that_does_not_replay() {
    let work = crate::background::Work::Table {
        setup: Setup::Gorami(GoramiSetup::Hexagon),
        moves: vec!["2@7".into()],
        find: TableFind::EngineMove(1),
    };
    let crossed: crate::background::Work = serde_json::from_str(&serde_json::to_string(&work).unwrap()).unwrap();
    assert_eq!(crossed, work);
    let answer = crossed.run(&std::sync::atomic::AtomicBool::new(false)).unwrap();
    let crate::background::Answer::TableMove(Some(chosen)) = answer else { panic!("{answer:?}") };
    let mut position = GoramiSetup::Hexagon.start();
    position.play("2@7".parse().unwrap()).unwrap();
    assert!(position.play(chosen.parse().unwrap()).is_ok(), "{chosen}");
    let bad = Setup::Gorami(GoramiSetup::Hexagon).run(&["2@7".into(), "1@7".into()], TableFind::Hints);
    assert!(bad.is_err_and(|error| error.starts_with("move 2 (1@7): Field 7 is taken")), "one error naming the move");
    let unreadable = Setup::Kalah(KalahSetup::default()).run(&["seven".into()], TableFind::Hints);
    assert_eq!(unreadable.unwrap_err(), "move 1: `seven` is not a Kalah move");
}

#[test]
fn a_saved_table_game_resumes_as_it_was_and_a_bad_level_is_refused() {
    let mut session = Session::new(GoramiSetup::Hexagon, [Seat::Engine(4), Seat::Person]);
    drive_until(&mut session, Session::person_to_move);
    let screen = TableScreen::Gorami(gorami_view::GoramiScreen::resume(
        session,
        view::SeatChoice::of([Seat::Engine(4), Seat::Person]),
    ));
    let saved = screen.save();
    assert_eq!(
        (saved.setup, saved.engines, saved.moves.len()),
        (Setup::Gorami(GoramiSetup::Hexagon), [Some(4), None], 1)
    );
    let crossed: SavedTable = serde_json::from_str(&serde_json::to_string(&saved).unwrap()).unwrap();
    let TableScreen::Gorami(resumed) = TableScreen::restore(&crossed).unwrap() else { panic!("GORami") };
    assert_eq!(resumed.session.moves().len(), 1);
    assert_eq!(resumed.choice, view::SeatChoice { opponent: Some(4), person_first: false });
    assert!(resumed.session.person_to_move());
    let bad = SavedTable { engines: [Some(9), None], ..saved };
    assert_eq!(TableScreen::restore(&bad).unwrap_err(), "level 9 is not a level (1-5)");
}
