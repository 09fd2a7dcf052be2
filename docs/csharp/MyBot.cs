using ChessChallenge.API;
using System;
using System.Linq;

public class MyBot : IChessBot
{
    int[] values = { 0, 100, 300, 320, 500, 900, 0 };
    Board board;
    Timer timer;
    Move best;

    public Move Think(Board b, Timer t)
    {
        board = b;
        timer = t;
        best = b.GetLegalMoves()[0];
        try
        {
            for (int depth = 1; ; depth++)
                Search(depth, -99999, 99999, true);
        }
        catch { }
        return best;
    }

    int Eval()
    {
        int score = 0;
        foreach (PieceList list in board.GetAllPieceLists())
            foreach (Piece p in list)
                score += (values[(int)p.PieceType] + (p.IsWhite ? p.Square.Rank : 7 - p.Square.Rank) * 4)
                    * (p.IsWhite == board.IsWhiteToMove ? 1 : -1);
        return score;
    }

    int Search(int depth, int alpha, int beta, bool root)
    {
        if (timer.MillisecondsElapsedThisTurn > timer.MillisecondsRemaining / 40) throw null;
        if (!root && board.IsDraw()) return 0;
        if (board.IsInCheckmate()) return -50000;
        bool quiet = depth <= 0;
        if (quiet)
        {
            alpha = Math.Max(alpha, Eval());
            if (alpha >= beta) return alpha;
        }
        else if (!root && depth > 2 && !board.IsInCheck())
        {
            board.ForceSkipTurn();
            int nullScore = -Search(depth - 3, -beta, 1 - beta, false);
            board.UndoSkipTurn();
            if (nullScore >= beta) return beta;
        }
        foreach (Move m in board.GetLegalMoves(quiet).OrderByDescending(m => values[(int)m.CapturePieceType]))
        {
            board.MakeMove(m);
            int score = -Search(depth - 1, -beta, -alpha, false);
            board.UndoMove(m);
            if (score > alpha)
            {
                alpha = score;
                if (root) best = m;
                if (alpha >= beta) break;
            }
        }
        return alpha;
    }
}
