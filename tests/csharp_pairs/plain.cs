using ChessChallenge.API;
using System;
using System.Collections.Generic;
using System.Linq;

// The plain style of the field's middle: material and a few positional terms, iterative
// deepening with a time check, alpha-beta, quiescence search, MVV-LVA move ordering.
public class MyBot : IChessBot
{
    int[] pieceValues = { 0, 100, 320, 330, 500, 900, 0 };
    Board board;
    Timer timer;
    Move bestMove, rootMove;

    public Move Think(Board b, Timer t)
    {
        board = b;
        timer = t;
        bestMove = board.GetLegalMoves()[0];
        for (int depth = 1; depth < 64; depth++)
        {
            Search(depth, 0, -1000000, 1000000);
            // A search cut short by the clock is worth nothing: keep the last whole one.
            if (OutOfTime())
                break;
            bestMove = rootMove;
        }
        return bestMove;
    }

    bool OutOfTime() => timer.MillisecondsElapsedThisTurn * 40 > timer.MillisecondsRemaining;

    // The last best move first, then captures, most valuable victim first and least
    // valuable attacker first among them.
    IEnumerable<Move> Order(Move[] moves) => moves.OrderByDescending(move =>
        move == bestMove ? 10000 : pieceValues[(int)move.CapturePieceType] - (int)move.MovePieceType);

    int Search(int depth, int ply, int alpha, int beta)
    {
        if (board.IsInCheckmate())
            return ply - 100000;
        if (board.IsDraw())
            return 0;
        if (depth <= 0)
            return Quiesce(alpha, beta);
        foreach (Move move in Order(board.GetLegalMoves()))
        {
            board.MakeMove(move);
            int score = -Search(depth - 1, ply + 1, -beta, -alpha);
            board.UndoMove(move);
            if (OutOfTime())
                return 0;
            if (score >= beta)
                return beta;
            if (score > alpha)
            {
                alpha = score;
                if (ply == 0)
                    rootMove = move;
            }
        }
        return alpha;
    }

    int Quiesce(int alpha, int beta)
    {
        int standPat = Evaluate();
        if (standPat >= beta)
            return beta;
        if (standPat > alpha)
            alpha = standPat;
        foreach (Move move in Order(board.GetLegalMoves(true)))
        {
            board.MakeMove(move);
            int score = -Quiesce(-beta, -alpha);
            board.UndoMove(move);
            if (score >= beta)
                return beta;
            if (score > alpha)
                alpha = score;
        }
        return alpha;
    }

    // Material, pawns pushed on, knights near the centre; for the side to move.
    int Evaluate()
    {
        int score = 0;
        foreach (PieceList list in board.GetAllPieceLists())
            foreach (Piece piece in list)
            {
                int value = pieceValues[(int)piece.PieceType], rank = piece.Square.Rank;
                if (piece.IsPawn)
                    value += 8 * (list.IsWhitePieceList ? rank : 7 - rank);
                if (piece.IsKnight)
                    value -= 5 * (Math.Abs(2 * piece.Square.File - 7) + Math.Abs(2 * rank - 7));
                score += list.IsWhitePieceList ? value : -value;
            }
        return board.IsWhiteToMove ? score : -score;
    }
}
