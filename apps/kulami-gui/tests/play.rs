//! The window driven like a player: holes found by their accessible labels and clicked.

mod support;

use egui_kittest::{
    Harness,
    kittest::{NodeT as _, Queryable as _},
};
use kulami_gui::KulamiApp;
use kulami_gui::autosave::Autosave;
use support::frame;
use support::wait_for;

fn harness() -> Harness<'static, KulamiApp> {
    let mut harness =
        Harness::builder().with_size(egui::vec2(1000.0, 720.0)).build_ui_state(frame, KulamiApp::default());
    harness.run();
    harness
}

/// Scrolls to a widget as a player would, clicks it and lets a few frames pass (not `run`:
/// while the engine thinks, a spinner keeps the window repainting, so it never settles).
fn click(harness: &mut Harness<'static, KulamiApp>, label: &str) {
    let window = harness.ctx.content_rect();
    if !window.contains_rect(harness.get_by_label(label).rect()) {
        // Scrolling glides: let it arrive.
        harness.get_by_label(label).scroll_to_me();
        harness.run_steps(40);
    }
    harness.get_by_label(label).click();
    harness.run_steps(3);
}

/// Opens a folded section of the side panel (Board, Options, Files).
fn open_section(harness: &mut Harness<'static, KulamiApp>, section: &str) {
    click(harness, section);
}

fn label_of(node: &egui_kittest::Node<'_>) -> String {
    node.accesskit_node().label().unwrap_or_default().to_string()
}

fn moves(harness: &Harness<'static, KulamiApp>) -> String {
    kulami_core::notation::format_moves(&harness.state().state().game().record().moves)
}

#[test]
fn clicking_legal_holes_plays_them() {
    let mut harness = harness();
    assert_eq!(harness.query_all_by_label_contains("empty, legal").count(), 64);
    click(&mut harness, "d4 empty, legal");
    harness.get_by_label("d4 red");
    click(&mut harness, "d7 empty, legal");
    assert_eq!(moves(&harness), "d4 d7");
    harness.get_by_label("Red to move");
    // Red must answer in row 7 or column d, off both last tiles: exactly these holes are offered.
    let mut legal: Vec<String> =
        harness.query_all_by_label_contains("empty, legal").map(|node| label_of(&node)).collect();
    legal.sort();
    assert_eq!(legal.len(), 9, "{legal:?}");
    assert!(legal.iter().all(|label| label.starts_with('d') || label.ends_with("7 empty, legal")));
}

#[test]
fn illegal_holes_do_nothing_and_explain_why() {
    let mut harness = harness();
    click(&mut harness, "d4 empty, legal");
    // e5 is neither in row 4 nor in column d.
    click(&mut harness, "e5 empty");
    assert_eq!(moves(&harness), "d4");
    harness.get_by_label("E5 is not in the row or column of the opponent's last marble (d4).");
}

#[test]
fn undo_redo_and_new_game() {
    let mut harness = harness();
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "d7 empty, legal");
    click(&mut harness, "Undo");
    assert_eq!(moves(&harness), "d4");
    click(&mut harness, "Redo");
    assert_eq!(moves(&harness), "d4 d7");
    click(&mut harness, "New game");
    assert_eq!(moves(&harness), "");
    harness.get_by_label("0 / 56 marbles placed");
}

#[test]
fn a_game_played_by_clicks_reaches_its_end() {
    let mut harness = harness();
    // Each side clicks the first hole offered, until none is.
    for _ in 0..56 {
        let Some(first) = harness.query_all_by_label_contains("empty, legal").next().map(|node| label_of(&node)) else {
            break;
        };
        click(&mut harness, &first);
    }
    let position = harness.state().state().game().position();
    assert!(position.is_game_over());
    assert_eq!(position.move_count(), 47, "the first-legal-hole game locks after 47 moves");
    assert_eq!(harness.query_all_by_label_contains("empty, legal").count(), 0);
    let score = position.score(kulami_core::Scoring::Standard);
    assert!(score.black.total > score.red.total);
    harness.get_by_label(&format!("Black wins {}-{}", score.black.total, score.red.total));
    harness.get_by_label(&format!("Tiles {}-{}", score.red.tiles, score.black.tiles));
    let tiles = position.layout().tiles().len();
    let red = (0..tiles)
        .filter(|&t| {
            position.tile_count(t, kulami_core::Color::Red) > position.tile_count(t, kulami_core::Color::Black)
        })
        .count();
    let black = (0..tiles)
        .filter(|&t| {
            position.tile_count(t, kulami_core::Color::Black) > position.tile_count(t, kulami_core::Color::Red)
        })
        .count();
    harness.get_by_label(&format!("Tiles won: red {red}, black {black}, tied {}", tiles - red - black));

    // The analysis runs off the UI thread and then shows the costliest moves; clicking one goes
    // to the position before it.
    click(&mut harness, "Review");
    wait_until(&mut harness, |app| app.state().game().position().is_game_over() && !app.analysing());
    harness.get_by_label("Costliest moves");
    let mistake = harness.query_all_by_label_contains(" lost ").next().map(|node| label_of(&node));
    let mistake = mistake.expect("first-legal-hole play makes mistakes");
    let number: usize = mistake["Move ".len()..mistake.find(':').unwrap()].parse().unwrap();
    click(&mut harness, &mistake);
    assert_eq!(harness.state().state().game().position().ply(), number - 1);
    // The board marks the better move, and the panel says what the move played lost.
    let better = harness.query_all_by_label_contains(", the better move").count();
    assert_eq!(better, 1, "one hole is marked as the better move");
    assert!(harness.query_all_by_label_contains("(the gold diamond) was better: ").next().is_some());
    // Looking back keeps the analysis of this game; a new game closes it.
    harness.get_by_label("Costliest moves");
    click(&mut harness, "New game");
    assert!(harness.query_by_label("Costliest moves").is_none(), "the analysis of the old game is gone");
    assert!(harness.query_by_label("Show the analysis").is_none());
    // Brought back, the finished game offers a rematch: the same board, colours exchanged.
    click(&mut harness, "Bring back the last game");
    click(&mut harness, "Last move");
    click(&mut harness, "Rematch");
    assert_eq!(moves(&harness), "");
    harness.get_by_label("Red to move");
}

/// Steps the window until `done` holds (the engine works on another thread), for at most 10 s.
fn wait_until(harness: &mut Harness<'static, KulamiApp>, done: impl Fn(&KulamiApp) -> bool) {
    for _ in 0..500 {
        harness.step();
        if done(harness.state()) {
            harness.run_steps(3);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("timed out waiting; moves {}", moves(harness));
}

fn choose(harness: &mut Harness<'static, KulamiApp>, combo: &str, option: &str) {
    click(harness, combo);
    click(harness, option);
}

#[test]
fn the_engine_answers_without_freezing_the_window() {
    let mut harness = harness();
    choose(&mut harness, "Black player", "Computer: Casual");
    click(&mut harness, "d4 empty, legal");
    // The reply comes from another thread; the window keeps drawing meanwhile.
    wait_until(&mut harness, |app| app.state().game().position().move_count() == 2);
    let reply = harness.state().state().game().position().placements()[1];
    assert!(reply.row() == 3 || reply.column() == 3, "{reply} answers d4");
    harness.get_by_label("Red to move");
    // Undo goes back to the person's turn, taking back the engine's reply too.
    click(&mut harness, "Undo");
    assert_eq!(moves(&harness), "");
}

#[test]
fn hints_show_three_holes() {
    let mut harness = harness();
    open_section(&mut harness, "Options");
    click(&mut harness, "Hints (H)");
    click(&mut harness, "d4 empty, legal");
    wait_until(&mut harness, |app| !app.thinking());
    wait_for(&mut harness, "Hints: 1. ", 10);
}

#[test]
fn master_thinks_on_the_persons_time_unless_told_not_to() {
    let mut harness = harness();
    choose(&mut harness, "Black player", "Computer: Master");
    harness.run_steps(2);
    assert!(harness.state().pondering(), "red, the person, is to move against Master");
    open_section(&mut harness, "Options");
    click(&mut harness, "Master thinks on your time");
    assert!(!harness.state().pondering());
    click(&mut harness, "Master thinks on your time");
    assert!(harness.state().pondering());
}

#[test]
fn shuffle_deals_a_board_that_its_seed_recreates() {
    let mut harness = harness();
    open_section(&mut harness, "Board");
    click(&mut harness, "Irregular");
    click(&mut harness, "Shuffle");
    let dealt = harness.state().state().board().clone();
    let kulami_gui::state::BoardChoice::Random { seed, .. } = dealt else { panic!("not a random board") };
    harness.get_by_label(&format!("irregular board, seed {seed}"));
    choose(&mut harness, "Preset", "easy");
    assert_eq!(harness.state().state().game().position().layout().holes().len(), 36);
}

#[test]
fn the_game_in_progress_survives_a_restart_and_damage_is_reported() {
    let dir = std::env::temp_dir().join(format!("kulami-gui-autosave-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("autosave.json");
    let mut app = KulamiApp::new(Some(Autosave::new(path.clone())));
    assert!(app.state().message().is_none(), "nothing saved yet");
    app.skip_start();
    let mut harness = start_harness(app);
    // Every move is saved at once: no clean shutdown is needed.
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "d7 empty, legal");
    drop(harness);
    let restored = KulamiApp::new(Some(Autosave::new(path.clone())));
    assert_eq!(kulami_core::notation::format_moves(&restored.state().game().record().moves), "d4 d7");

    std::fs::write(&path, "{ not json").unwrap();
    let recovered = KulamiApp::new(Some(Autosave::new(path.clone())));
    assert_eq!(kulami_core::notation::format_moves(&recovered.state().game().record().moves), "d4");
    assert!(recovered.state().message().unwrap().starts_with("The autosave was damaged"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stepping_through_the_moves() {
    let mut harness = harness();
    for hole in ["d4", "d7", "g7"] {
        click(&mut harness, &format!("{hole} empty, legal"));
    }
    click(&mut harness, "Step back");
    assert_eq!(moves(&harness), "d4 d7");
    click(&mut harness, "1. d4");
    assert_eq!(moves(&harness), "d4");
    click(&mut harness, "Last move");
    assert_eq!(moves(&harness), "d4 d7 g7");
    click(&mut harness, "First move");
    assert_eq!(moves(&harness), "");
    harness.get_by_label("3. g7");
    // A move played now replaces the ones taken back.
    click(&mut harness, "e5 empty, legal");
    assert!(harness.query_by_label("3. g7").is_none());
}

#[test]
fn the_second_player_may_swap_colours() {
    let mut harness = harness();
    open_section(&mut harness, "Options");
    click(&mut harness, "Swap after the first move (pie rule)");
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "Swap colours");
    harness.get_by_label("Colours swapped: the first marble is now the second player's.");
    assert!(harness.query_by_label("Swap colours").is_none(), "only once");
    // The swap is a move of the game: listed, and taken back by Undo like any other.
    assert_eq!(moves(&harness), "d4 swap");
    harness.get_by_label("2. swap");
    click(&mut harness, "Undo");
    assert_eq!(moves(&harness), "d4");
    harness.get_by_label("Swap colours");
    click(&mut harness, "Redo");
    assert_eq!(moves(&harness), "d4 swap");
    // Against the engine: it opened as red, the person swaps and the engine answers as black.
    click(&mut harness, "New game");
    choose(&mut harness, "Red player", "Computer: Beginner");
    wait_until(&mut harness, |app| app.state().game().position().ply() == 1);
    click(&mut harness, "Swap colours");
    assert_eq!(harness.state().state().seat(kulami_core::Color::Red), kulami_gui::state::Seat::Human);
    wait_until(&mut harness, |app| app.state().game().position().move_count() == 3);
    harness.get_by_label("Red to move");
    assert_eq!(harness.state().state().seat(kulami_core::Color::Red), kulami_gui::state::Seat::Human);
}

#[test]
fn games_save_to_and_open_from_record_files() {
    let dir = std::env::temp_dir().join(format!("kulami-gui-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.txt");
    let mut harness = harness();
    open_section(&mut harness, "Files");
    harness.get_by_label("Game file").focus();
    harness.run_steps(2);
    // Replace the field's text: select all, then type.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Game file").type_text(path.to_str().unwrap());
    harness.run_steps(2);
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "d7 empty, legal");
    click(&mut harness, "Save game");
    harness.get_by_label(&format!("Game saved to {}.", path.display()));
    click(&mut harness, "New game");
    click(&mut harness, "Open game");
    assert_eq!(moves(&harness), "d4 d7");

    std::fs::write(&path, "layout: AABB\nmoves: a1 b1 a1\n").unwrap();
    click(&mut harness, "Open game");
    assert_eq!(moves(&harness), "d4 d7", "a damaged file changes nothing");
    harness.get_by_label_contains("the game on the board is kept");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_board_made_in_the_editor_can_be_played() {
    let mut harness = harness();
    open_section(&mut harness, "Board");
    click(&mut harness, "Edit board");
    harness.get_by_label_contains("A valid board: 17 tiles, 64 holes, the standard set");
    click(&mut harness, "Clear");
    harness.get_by_label("the layout has no tiles");
    // Two 2x3 tiles side by side, then a 2x2 below.
    click(&mut harness, "frame a1 free");
    click(&mut harness, "frame d1 free");
    click(&mut harness, "2x2 (0/5)");
    click(&mut harness, "frame a3 free");
    harness.get_by_label_contains("A valid board: 3 tiles, 16 holes");
    click(&mut harness, "Play on this board");
    let layout = harness.state().state().game().position().layout().clone();
    assert_eq!(layout.to_one_line(), "AAABBB/AAABBB/CC..../CC....");
    assert!(harness.state().editor().is_none(), "the editor closes");
    harness.get_by_label("a3 empty, legal");
}

#[test]
fn the_daily_puzzle_judges_the_first_click_and_counts_the_streak() {
    let mut harness = harness();
    click(&mut harness, "Daily puzzle");
    harness.get_by_label("Streak: 0 days");
    let puzzle = harness.state().daily().expect("the puzzle screen is shown").puzzle();
    let answer = puzzle.answer;
    // A hole with a marble is no answer; the answer is.
    click(&mut harness, &format!("{} {}", puzzle.moves[0], puzzle.position().color_at(puzzle.moves[0]).unwrap()));
    harness.get_by_label("Try another hole.");
    click(&mut harness, &format!("{answer} empty, legal"));
    harness.get_by_label(&format!("Right: {answer} is the best move."));
    harness.get_by_label("Streak: 1 days");
    click(&mut harness, "Back to the game");
    assert!(harness.state().daily().is_none());
    harness.get_by_label("Red to move");
}

#[test]
fn a_wrong_puzzle_answer_is_judged_off_the_window_thread() {
    let mut harness = harness();
    click(&mut harness, "Daily puzzle");
    let puzzle = harness.state().daily().unwrap().puzzle();
    let wrong = puzzle.position().legal_moves().iter().find(|&cell| cell != puzzle.answer).unwrap();
    harness.get_by_label(&format!("{wrong} empty, legal")).click();
    harness.step();
    harness.step();
    // The window is drawn while the solver works (its verdict may already be in on a fast machine).
    let checking = harness.query_by_label(&format!("Checking {wrong}…")).is_some();
    let judged = harness.state().daily().unwrap().answered().is_some();
    assert!(checking || judged, "neither checking nor judged");
    wait_until(&mut harness, |app| app.daily().unwrap().judging().is_none());
    assert!(harness.query_all_by_label_contains(&format!("Wrong: {wrong} ends")).next().is_some());
}

#[test]
fn messages_come_and_go_without_moving_the_controls() {
    let mut harness = harness();
    let before = harness.get_by_label("New game").rect();
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "e5 empty");
    harness.get_by_label("E5 is not in the row or column of the opponent's last marble (d4).");
    assert_eq!(harness.get_by_label("New game").rect(), before, "a message must not push the controls down");
    choose(&mut harness, "Black player", "Computer: Beginner");
    wait_until(&mut harness, |app| app.state().game().position().move_count() == 2);
    assert_eq!(harness.get_by_label("New game").rect(), before, "nor the engine's spinner");
}

#[test]
fn the_side_panel_keeps_its_width_and_the_board_stays_beside_it() {
    let mut harness = harness();
    let panel_left = harness.get_by_label("New game").rect().min.x;
    for section in ["Board", "Options", "Files"] {
        open_section(&mut harness, section);
    }
    choose(&mut harness, "Black player", "Computer: Master");
    harness.get_by_label("Seed").focus();
    harness.run_steps(2);
    harness.get_by_label("Seed").type_text("not a seed at all");
    harness.run_steps(3);
    click(&mut harness, "d4 empty, legal");
    assert_eq!(harness.get_by_label("New game").rect().min.x, panel_left, "the panel did not move");
    let width = 1000.0;
    let mut checked = 0;
    for node in harness.query_all(egui_kittest::kittest::by()) {
        let Some(bounds) = node.accesskit_node().bounding_box() else { continue };
        let rect = egui::Rect::from_min_max(
            egui::pos2(bounds.x0 as f32, bounds.y0 as f32),
            egui::pos2(bounds.x1 as f32, bounds.y1 as f32),
        );
        let name = label_of(&node);
        checked += 1;
        if name.split(' ').next().is_some_and(|first| first.parse::<kulami_core::Cell>().is_ok()) {
            assert!(rect.max.x <= panel_left, "hole {name} at {rect:?} reaches under the panel at {panel_left}");
        } else {
            assert!(rect.max.x <= width + 0.5, "{name:?} at {rect:?} sticks out of the window");
        }
    }
    assert!(checked > 100, "only {checked} widgets were looked at");
}

#[test]
fn a_small_window_still_shows_the_board_and_the_game_controls() {
    let mut harness =
        Harness::builder().with_size(egui::vec2(800.0, 600.0)).build_ui_state(frame, KulamiApp::default());
    harness.run();
    click(&mut harness, "d4 empty, legal");
    for control in ["Black to move", "New game", "Undo", "Redo"] {
        let rect = harness.get_by_label(control).rect();
        assert!(rect.max.x <= 800.0 && rect.max.y <= 600.0, "{control} at {rect:?} is outside an 800x600 window");
    }
    // The board keeps most of the width, and its holes can be clicked.
    let hole = harness.get_by_label("d7 empty, legal").rect();
    assert!(hole.width() >= 40.0, "holes of {} px are too small to hit", hole.width());
    click(&mut harness, "d7 empty, legal");
    assert_eq!(moves(&harness), "d4 d7");
}

#[test]
fn a_new_game_can_be_taken_back() {
    let mut harness = harness();
    click(&mut harness, "d4 empty, legal");
    click(&mut harness, "New game");
    assert_eq!(moves(&harness), "");
    click(&mut harness, "Bring back the last game");
    assert_eq!(moves(&harness), "d4");
    harness.get_by_label("The last game is back.");
}

#[test]
fn a_seed_that_is_no_number_is_said_so() {
    let mut harness = harness();
    open_section(&mut harness, "Board");
    harness.get_by_label("Seed").focus();
    harness.run_steps(2);
    harness.get_by_label("Seed").type_text("12x");
    harness.run_steps(3);
    harness.get_by_label("not a number");
    assert!(harness.get_by_label("Deal").accesskit_node().is_disabled());
}

fn start_harness(app: KulamiApp) -> Harness<'static, KulamiApp> {
    let mut harness = Harness::builder().with_size(egui::vec2(1000.0, 720.0)).build_ui_state(frame, app);
    harness.run();
    harness
}

#[test]
fn the_start_screen_asks_what_to_play_and_remembers_the_choice() {
    let dir = std::env::temp_dir().join(format!("kulami-gui-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("autosave.json");
    let mut harness = start_harness(KulamiApp::new(Some(Autosave::new(path.clone()))));
    assert!(harness.state().starting());
    // Every level is named in words, with a sentence on how it plays.
    for name in ["Beginner", "Casual", "Club", "Expert", "Master"] {
        harness.get_by_label(name);
    }
    harness.get_by_label_contains("Looks three moves ahead, weighing the whole board");
    assert!(harness.query_by_label_contains("Continue the game").is_none(), "nothing to continue yet");
    click(&mut harness, "Black");
    click(&mut harness, "Expert");
    harness.get_by_label("Play the computer").click();
    harness.run_steps(3);
    assert!(!harness.state().starting());
    let state = harness.state().state();
    assert_eq!(state.seat(kulami_core::Color::Black), kulami_gui::state::Seat::Human);
    assert_eq!(state.seat(kulami_core::Color::Red), kulami_gui::state::Seat::Engine(kulami_ai::Level::Expert));
    // The computer opens as red; then the person's move is saved.
    wait_until(&mut harness, |app| app.state().game().position().move_count() == 1);
    let reply = harness.query_all_by_label_contains("empty, legal").next().map(|node| label_of(&node)).unwrap();
    click(&mut harness, &reply);
    // Red's engine may answer at once; whatever was played is what must come back.
    let saved: Vec<_> = harness.state().state().game().position().moves().collect();
    assert!(saved.len() >= 2, "the person's move was played");
    drop(harness);
    // Next time the game can be continued, and the choices are preselected.
    let mut harness = start_harness(KulamiApp::new(Some(Autosave::new(path.clone()))));
    assert!(harness.state().starting());
    assert_eq!(harness.get_by_label("Expert").accesskit_node().toggled(), Some(egui::accesskit::Toggled::True));
    assert_eq!(harness.get_by_label("Casual").accesskit_node().toggled(), Some(egui::accesskit::Toggled::False));
    let go_on = label_of(&harness.get_by_label_contains(&format!("Continue the game (move {}", saved.len())));
    click(&mut harness, &go_on);
    assert!(!harness.state().starting());
    // Red's engine may already have answered again: the saved moves open the game either way.
    let resumed: Vec<_> = harness.state().state().game().position().moves().collect();
    assert!(resumed.starts_with(&saved), "resumed {resumed:?}, saved {saved:?}");
    // The game's Menu button goes back; a friend's game seats two people.
    click(&mut harness, "Menu");
    click(&mut harness, "Play a friend");
    let state = harness.state().state();
    assert_eq!(state.seats_by_color(), [kulami_gui::state::Seat::Human; 2]);
    assert_eq!(state.game().position().move_count(), 0);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A game the computer is to move in, left behind the start screen, waits there: the game
/// offered to continue is the one the person finds, and the engine plays once they are back.
#[test]
fn a_game_behind_the_start_screen_waits_for_the_person() {
    use kulami_gui::state::{Action, GameState, Seat};
    let dir = std::env::temp_dir().join(format!("kulami-gui-waits-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("autosave.json");
    let mut state = GameState::default();
    for cell in ["d4", "d7"] {
        state.apply(Action::Place(cell.parse().unwrap()));
    }
    state.apply(Action::Seat(kulami_core::Color::Red, Seat::Engine(kulami_ai::Level::Expert)));
    assert!(state.engine_to_move().is_some(), "the computer is to move");
    let saved = kulami_gui::saved::Saved::capture(&state, kulami_gui::saved::Settings::default());
    Autosave::new(path.clone()).store(&saved).unwrap();
    let mut harness = start_harness(KulamiApp::new(Some(Autosave::new(path))));
    // Longer than the engine's second a move: had it been thinking, it would have answered.
    for _ in 0..100 {
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(harness.state().state().game().position().move_count(), 2);
    let go_on = label_of(&harness.get_by_label_contains("Continue the game (move 2,"));
    click(&mut harness, &go_on);
    wait_until(&mut harness, |app| app.state().game().position().move_count() == 3);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn how_to_play_opens_with_example_boards() {
    let mut harness = harness();
    click(&mut harness, "How to play");
    harness.get_by_label_contains("you must play in the same row or column");
    // The example boards are drawn too: their holes have labels like the game's.
    assert!(harness.query_all_by_label("c2 red").count() >= 2);
}

/// The page's test hook reads the app: the screen, the game and where each hole is drawn; a
/// click at a hole's spot plays it, as a browser test clicks the canvas.
#[test]
fn the_probe_tells_the_screen_and_where_to_click() {
    let mut harness =
        Harness::builder().with_size(egui::vec2(1000.0, 720.0)).build_ui_state(frame, KulamiApp::new(None));
    harness.run();
    let probe = harness.state().probe(&harness.ctx);
    assert_eq!(probe.screen, "start");
    assert!(probe.holes.is_empty(), "no board on the start screen");
    harness.get_by_label("Play the computer").click();
    harness.run();
    let probe = harness.state().probe(&harness.ctx);
    assert_eq!((probe.screen, probe.holes.len(), probe.legal.len()), ("game", 64, 64));
    assert_eq!(probe.to_move, Some(kulami_core::Color::Red));
    let d4 = probe.holes.iter().find(|hole| hole.name == "d4").expect("d4 is drawn");
    let at = egui::pos2(d4.x, d4.y);
    harness.event(egui::Event::PointerMoved(at));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
    }
    harness.run_steps(3);
    assert_eq!(harness.state().probe(&harness.ctx).moves.first().map(String::as_str), Some("d4"));
}
