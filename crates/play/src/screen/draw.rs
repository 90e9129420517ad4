//! The screen as a pure function of the state and the terminal size: [`draw`].

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color as Paint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use othello::{Color, Square};

use super::app::{App, Job, Mode, Tone};
use super::form::{FIELDS, Field, Form};
use super::layout::{CellStyle, Fit, ScreenAreas};
use super::{result_sentence, squares};
use crate::view::{self, label};

/// A black disc just flipped by the last move.
pub const BLACK_FLIPPED: char = 'x';
/// A white disc just flipped by the last move.
pub const WHITE_FLIPPED: char = 'o';
/// The square a hint suggests.
pub const HINT: char = '+';

/// The styles of the parts of the screen; without colour only bold and reverse video remain,
/// and the glyphs alone tell things apart.
struct Styles {
    board: Style,
    lines: Style,
    black: Style,
    white: Style,
    legal: Style,
    hint: Style,
    marker: Style,
    strong: Style,
    warning: Style,
    key: Style,
}

impl Styles {
    fn new(colour: bool) -> Styles {
        let strong = Style::new().add_modifier(Modifier::BOLD);
        if !colour {
            return Styles {
                board: Style::new(),
                lines: Style::new(),
                black: strong,
                white: strong,
                legal: Style::new(),
                hint: strong,
                marker: strong,
                strong,
                warning: strong,
                key: Style::new().add_modifier(Modifier::REVERSED),
            };
        }
        let board = Style::new().bg(Paint::Green);
        Styles {
            board,
            lines: board.fg(Paint::DarkGray),
            black: board.fg(Paint::Black).add_modifier(Modifier::BOLD),
            white: board.fg(Paint::White).add_modifier(Modifier::BOLD),
            legal: board.fg(Paint::LightYellow).add_modifier(Modifier::BOLD),
            hint: board.fg(Paint::LightMagenta).add_modifier(Modifier::BOLD),
            marker: board.fg(Paint::Red).add_modifier(Modifier::BOLD),
            strong,
            warning: Style::new().fg(Paint::Yellow),
            key: Style::new().fg(Paint::Black).bg(Paint::Cyan),
        }
    }
}

/// Draws the whole screen for `app` in the frame's area.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let styles = Styles::new(app.colour);
    if let Mode::Setup(form) = &app.mode {
        draw_form(frame, form, &styles);
        return;
    }
    let dims = app.game().board().dims();
    let layout = match ScreenAreas::compute(area, dims) {
        Fit::Board(layout) => layout,
        Fit::TooSmall { width, height } => {
            let text = format!(
                "This window is {}x{}: too small for the {dims} board. Make the window at least {width}x{height}, or press q to quit.",
                area.width, area.height
            );
            frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
            return;
        }
    };
    draw_board(frame.buffer_mut(), app, &layout, &styles);
    if let Some(panel) = layout.panel {
        frame.render_widget(
            Paragraph::new(panel_lines(app, &styles, panel.width, panel.height)),
            panel,
        );
    }
    if let Some(summary) = layout.summary {
        frame.render_widget(Paragraph::new(summary_line(app, &styles)), summary);
    }
    frame.render_widget(
        Paragraph::new(message_line(app, &styles)).wrap(Wrap { trim: true }),
        layout.message,
    );
    frame.render_widget(
        Paragraph::new(key_bar(app, &styles, layout.keys.width)),
        layout.keys,
    );
    if let Mode::Prompt(text) = &app.mode {
        let shown = prompt_tail(text, layout.keys.width).chars().count();
        let x = layout.keys.x + 1 + shown as u16;
        if x < layout.keys.x + layout.keys.width {
            frame.set_cursor_position(Position::new(x, layout.keys.y));
        }
    }
    if app.mode == Mode::Help {
        draw_help(frame, area);
    }
}

fn draw_board(buf: &mut Buffer, app: &App, layout: &ScreenAreas, styles: &Styles) {
    let dims = layout.dims;
    let board = layout.board;
    buf.set_style(board, styles.board);
    for col in 0..dims.cols() {
        let letter = Square::new(0, col).file_letter().to_string();
        let x = layout.column_label_x(col);
        buf.set_string(x, board.y, &letter, styles.board);
        buf.set_string(x, board.y + board.height - 1, &letter, styles.board);
    }
    for row in 0..dims.rows() {
        let number = format!("{:>2}", row + 1);
        let y = layout.row_label_y(row);
        buf.set_string(board.x, y, &number, styles.board);
        buf.set_string(board.x + board.width - 2, y, &number, styles.board);
    }
    if let CellStyle::Grid { .. } = layout.shape {
        draw_lines(buf, layout, styles);
    }
    let game = app.game();
    let show_legal = app.thinking.is_none()
        && game
            .turn()
            .is_some_and(|color| app.players()[color].is_human());
    let legal = if show_legal {
        game.legal_moves()
    } else {
        Vec::new()
    };
    let last = app.session().last_move().map(|played| played.square);
    let hint = app.hint.as_ref().map(|hint| hint.square);
    for square in dims.squares() {
        let disc = game.board().get(square).ok().flatten();
        let flipped = app.flipped.contains(&square);
        let (glyph, style) = match disc {
            Some(Color::Black) if flipped => (BLACK_FLIPPED, styles.black),
            Some(Color::White) if flipped => (WHITE_FLIPPED, styles.white),
            Some(color) => (view::glyph(color), disc_style(styles, color)),
            None if hint == Some(square) => (HINT, styles.hint),
            None if legal.contains(&square) => (view::LEGAL, styles.legal),
            None if layout.shape == CellStyle::Compact => (view::EMPTY, styles.board),
            None => (' ', styles.board),
        };
        let cell = layout.cell(square);
        draw_cell(buf, cell, glyph, disc.is_some(), style, layout.shape);
        if last == Some(square) {
            let (left, right) = match layout.shape {
                CellStyle::Compact => (cell.x - 1, cell.x + 1),
                CellStyle::Grid { .. } => (cell.x, cell.x + cell.width - 1),
            };
            let y = cell.y + (cell.height - 1) / 2;
            buf.set_string(left, y, "[", styles.marker);
            buf.set_string(right, y, "]", styles.marker);
        }
        if show_legal && square == app.cursor {
            buf.set_style(cell, Style::new().add_modifier(Modifier::REVERSED));
        }
    }
}

fn disc_style(styles: &Styles, color: Color) -> Style {
    match color {
        Color::Black => styles.black,
        Color::White => styles.white,
    }
}

/// One square: a single glyph, or in large cells a disc of glyphs rounded at the top and
/// bottom.
fn draw_cell(
    buf: &mut Buffer,
    cell: Rect,
    glyph: char,
    disc: bool,
    style: Style,
    shape: CellStyle,
) {
    let centre_y = cell.y + (cell.height - 1) / 2;
    let centre_x = cell.x + cell.width / 2;
    if !disc || shape == CellStyle::Compact || cell.height == 1 {
        buf.set_string(centre_x, centre_y, glyph.to_string(), style);
        return;
    }
    for line in 0..cell.height {
        let edge = line == 0 || line == cell.height - 1;
        let inset = if cell.height >= 3 && edge { 2 } else { 1 };
        let width = cell.width - 2 * inset;
        let text: String = std::iter::repeat_n(glyph, usize::from(width)).collect();
        buf.set_string(cell.x + inset, cell.y + line, text, style);
    }
}

/// The lines between and around the squares.
fn draw_lines(buf: &mut Buffer, layout: &ScreenAreas, styles: &Styles) {
    let frame = layout.frame();
    let (pitch_x, pitch_y) = layout.shape.pitch();
    let (right, bottom) = (frame.x + frame.width - 1, frame.y + frame.height - 1);
    for y in frame.y..=bottom {
        for x in frame.x..=right {
            let vertical = (x - frame.x).is_multiple_of(pitch_x);
            let horizontal = (y - frame.y).is_multiple_of(pitch_y);
            let symbol = match (vertical, horizontal) {
                (false, false) => continue,
                (true, false) => '│',
                (false, true) => '─',
                (true, true) => {
                    let top = y == frame.y;
                    let low = y == bottom;
                    let left = x == frame.x;
                    let end = x == right;
                    match (top, low, left, end) {
                        (true, _, true, _) => '┌',
                        (true, _, _, true) => '┐',
                        (true, _, _, _) => '┬',
                        (_, true, true, _) => '└',
                        (_, true, _, true) => '┘',
                        (_, true, _, _) => '┴',
                        (_, _, true, _) => '├',
                        (_, _, _, true) => '┤',
                        _ => '┼',
                    }
                }
            };
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_char(symbol).set_style(styles.lines);
            }
        }
    }
}

/// Names, counts, whose turn, the moves, the hint and the result, cut to `width` (and the
/// move list to the last lines that fit in `height`).
fn panel_lines(app: &App, styles: &Styles, width: u16, height: u16) -> Vec<Line<'static>> {
    let game = app.game();
    let players = app.players();
    let score = game.score();
    let width = usize::from(width);
    let mut lines = vec![
        Line::styled(format!("Othello {}", game.board().dims()), styles.strong),
        Line::raw(format!(
            "{} rules, {} discs wins",
            game.rules(),
            game.win_rule()
        )),
        Line::raw(""),
    ];
    for color in [Color::Black, Color::White] {
        let player = &players[color];
        let to_move = game.turn() == Some(color);
        let marker = if to_move { "> " } else { "  " };
        let name_width = width.saturating_sub(8);
        let name: String = player.name.chars().take(name_width).collect();
        let style = if to_move { styles.strong } else { Style::new() };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(view::glyph(color).to_string(), disc_style(styles, color)),
            Span::styled(format!(" {name:<name_width$}"), style),
            Span::styled(format!("{:>3}", score[color]), styles.strong),
        ]));
        let kind = match player.controller {
            othello_session::Controller::Human => "person".to_owned(),
            othello_session::Controller::Computer(level) => {
                format!("computer, level {level}")
            }
        };
        lines.push(Line::raw(format!("    {kind}")));
    }
    lines.push(Line::raw(""));
    if game.outcome().is_some() {
        let result = result_sentence(game, players);
        lines.push(Line::styled("Game over.", styles.strong));
        lines.extend(wrap(&result, width).into_iter().map(Line::raw));
        lines.push(Line::raw("n: new game, q: quit"));
    } else {
        let text = turn_text(app);
        lines.extend(wrap(&text, width).into_iter().map(Line::raw));
    }
    if let Some(hint) = &app.hint {
        lines.push(Line::raw(""));
        lines.extend(
            wrap(&format!("Hint {hint}"), width)
                .into_iter()
                .map(|text| Line::styled(text, styles.strong)),
        );
    }
    let moves: Vec<Square> = app.session().moves().map(|played| played.square).collect();
    if !moves.is_empty() {
        lines.push(Line::raw(""));
        lines.push(Line::raw(format!("Moves ({}):", moves.len())));
        // The latest moves when they do not all fit.
        let mut rows = wrap(&squares(&moves), width);
        let room = usize::from(height).saturating_sub(lines.len()).max(1);
        if rows.len() > room {
            rows.drain(..rows.len() - room);
            rows[0] = format!("... {}", rows[0]);
        }
        lines.extend(rows.into_iter().map(Line::raw));
    }
    lines
}

/// The score and whose turn it is, on one line, for screens without the panel.
fn summary_line(app: &App, styles: &Styles) -> Line<'static> {
    let game = app.game();
    let players = app.players();
    let score = game.score();
    let state = match game.outcome() {
        Some(_) => format!("Game over: {}", result_sentence(game, players)),
        None => turn_text(app),
    };
    Line::from(vec![
        Span::styled(
            format!(
                "{} {} - {} {}",
                label(&players.black),
                score.black,
                score.white,
                label(&players.white)
            ),
            styles.strong,
        ),
        Span::raw(format!("   {state}")),
    ])
}

/// Whose turn it is, or who is thinking.
fn turn_text(app: &App) -> String {
    let players = app.players();
    let spinner = ['|', '/', '-', '\\'][(app.ticks % 4) as usize];
    match (app.thinking, app.game().turn()) {
        (Some((_, Job::Move(color))), _) => {
            format!("{} is thinking {spinner}", label(&players[color]))
        }
        (Some((_, Job::Hint)), _) => format!("Looking for a hint {spinner}"),
        (None, Some(color)) => format!("{} to move", label(&players[color])),
        (None, None) => String::new(),
    }
}

/// The message, or what the player to move can do.
fn message_line(app: &App, styles: &Styles) -> Line<'static> {
    if let Some(message) = &app.message {
        let style = match message.tone {
            Tone::Info => Style::new(),
            Tone::Warning => styles.warning,
        };
        return Line::styled(message.text.clone(), style);
    }
    let game = app.game();
    match game.turn() {
        Some(color) if app.players()[color].is_human() && app.thinking.is_none() => {
            Line::raw(format!(
                "{} to move: click a square, or the arrows and Enter.",
                label(&app.players()[color])
            ))
        }
        Some(_) => Line::raw(turn_text(app)),
        None => Line::raw(format!(
            "Game over: {}",
            result_sentence(game, app.players())
        )),
    }
}

/// The end of the text typed at the prompt that fits `width` columns after the `:` and
/// before the cursor.
fn prompt_tail(text: &str, width: u16) -> &str {
    let room = usize::from(width.saturating_sub(2));
    let count = text.chars().count();
    match text.char_indices().nth(count.saturating_sub(room)) {
        Some((at, _)) if count > room => &text[at..],
        _ => text,
    }
}

/// The shortcuts, the prompt, or a question and its answers, in `width` columns.
fn key_bar(app: &App, styles: &Styles, width: u16) -> Line<'static> {
    let mut spans = Vec::new();
    match &app.mode {
        Mode::Prompt(text) => {
            spans.push(Span::raw(format!(":{}", prompt_tail(text, width))));
            return Line::from(spans);
        }
        Mode::Help => return Line::raw("Any key closes the help."),
        Mode::Confirm(pending) => {
            spans.push(Span::styled(
                format!("{} ", pending.question()),
                styles.strong,
            ));
        }
        Mode::Play | Mode::Setup(_) => {}
    }
    for (index, (key, label)) in app.key_bar().iter().enumerate() {
        if index > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(key.to_string(), styles.key));
        spans.push(Span::raw(format!(" {label}")));
    }
    Line::from(spans)
}

/// The new-game screen: a line per setting, the focused one highlighted.
fn draw_form(frame: &mut Frame, form: &Form, styles: &Styles) {
    let area = frame.area();
    let place = Form::placement(area);
    frame.render_widget(Clear, area);
    frame.render_widget(Block::bordered().title(" New game "), place.outer);
    let inner_right = place.outer.x + place.outer.width.saturating_sub(1);
    let buf = frame.buffer_mut();
    let fits = |y: u16| y + 1 < place.outer.y + place.outer.height;
    for (index, &field) in FIELDS.iter().enumerate() {
        let y = place.first_line + index as u16;
        if !fits(y) {
            break;
        }
        let focused = index == form.focus;
        let value = match field {
            Field::Name(_) if focused => format!("  {}_", form.value(field)),
            Field::Name(_) | Field::Start => format!("  {}", form.value(field)),
            _ if focused => format!("< {} >", form.value(field)),
            _ => format!("  {}", form.value(field)),
        };
        let style = if focused {
            Style::new().add_modifier(Modifier::REVERSED)
        } else {
            Style::new()
        };
        let label_width = usize::from(place.value_x.saturating_sub(place.label_x));
        buf.set_stringn(
            place.label_x,
            y,
            Form::label(field),
            label_width,
            styles.strong,
        );
        let room = usize::from(inner_right.saturating_sub(place.value_x));
        buf.set_stringn(place.value_x, y, value, room, style);
    }
    let width = usize::from(place.outer.width.saturating_sub(4));
    let help = form.error.clone().map_or_else(
        || {
            (
                "Up/Down: line, Left/Right: change, type a name, Enter: start, Esc: cancel"
                    .to_owned(),
                Style::new(),
            )
        },
        |error| (error, styles.warning),
    );
    let below = place.first_line + FIELDS.len() as u16 + 1;
    for (y, line) in (below..).zip(wrap(&help.0, width)) {
        if !fits(y) {
            break;
        }
        buf.set_stringn(place.label_x, y, line, width, help.1);
    }
}

/// The help text, over the middle of the screen.
fn draw_help(frame: &mut Frame, area: Rect) {
    let text = format!(
        "Click a square to play it, or move the cursor with the arrows (or h j k l) and press Enter or Space.\n\
         : then a square (d3, 3d, c10) or a command (hint, undo, redo, new, pass, moves, save [FILE], help, quit), Enter runs it, Esc cancels.\n\
         n new game, u undo (back to your previous move), r redo, t hint (marked {HINT} on the board), m legal moves, s save, q quit, Ctrl-C quit at once.\n\
         A player without a legal move passes automatically.\n\
         Board: {} black, {} white, {} legal move, [ ] last move, {BLACK_FLIPPED} {WHITE_FLIPPED} just flipped.",
        view::BLACK,
        view::WHITE,
        view::LEGAL
    );
    let width = area.width.saturating_sub(4).min(72);
    let height = area.height.saturating_sub(2).min(14);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title(" Help ")),
        popup,
    );
}

/// `text` cut into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
