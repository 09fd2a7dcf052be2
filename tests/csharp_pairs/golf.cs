using ChessChallenge.API;
using System;
using System.Linq;

// The golfed style: the smallest search that still plays sensibly. Negamax alpha-beta
// inside Think (a local function sees the board and the timer), captures only below the
// horizon with the running material as the stand-pat, MVV-LVA ordering, iterative
// deepening that the clock ends by throwing.
public class MyBot : IChessBot
{
    Move best;
    int[] values = { 0, 100, 300, 320, 500, 900, 0 };

    public Move Think(Board board, Timer timer)
    {
        best = board.GetLegalMoves()[0];
        int depth = 0;

        int Search(int d, int alpha, int beta, int eval)
        {
            if (d < 1 && eval > alpha)
                alpha = eval;
            foreach (Move m in board.GetLegalMoves(d < 1)
                .OrderByDescending(m => (m == best, m.CapturePieceType, -(int)m.MovePieceType)))
            {
                if (alpha >= beta)
                    break;
                if (timer.MillisecondsElapsedThisTurn * 30 > timer.MillisecondsRemaining)
                    throw null;
                board.MakeMove(m);
                int score = board.IsInCheckmate() ? 99999
                    : board.IsDraw() ? 0
                    : -Search(d - 1, -beta, -alpha, -eval - values[(int)m.CapturePieceType]);
                board.UndoMove(m);
                if (score > alpha)
                {
                    alpha = score;
                    if (d == depth)
                        best = m;
                }
            }
            return alpha;
        }

        try
        {
            for (;;)
                Search(++depth, -999999, 999999, 0);
        }
        catch { }
        return best;
    }
}
