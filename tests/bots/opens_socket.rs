//! Sandbox test: opens a network socket (to ask a stronger engine, say).
use framework::prelude::*;

#[derive(Default)]
pub struct MyBot;

impl Bot for MyBot {
    fn think(&mut self, board: Board, _timer: Timer) -> Move {
        let bound = std::net::UdpSocket::bind("127.0.0.1:0").is_ok();
        board.legal_moves()[usize::from(bound)]
    }
}
