using ChessChallenge.API;
using System;
using System.Linq;

// The PVS style of the field's strongest entries: iterative deepening, principal
// variation search, a transposition table, killer moves and history, null-move pruning,
// late-move reductions, reverse futility and futility pruning, quiescence search folded
// into the main search, and PeSTO's
// tapered piece-square tables packed into decimals and unpacked at construction.
public class MyBot : IChessBot
{
    // One square a constant (a1 first), 12 signed bytes: mg P N B R Q K, eg P N B R Q K,
    // each a PeSTO value / 1.5 (tests/csharp_pairs/pack_pesto.py writes them).
    decimal[] packedTables =
    {
        68680260866671043956521482752m, 72396532057671382741144236544m,
        75186737407056809798802069760m, 77337402494773235399328459264m,
        73655004947793353634062267648m, 76728065955037551248392383744m,
        74570190181483732716705215232m, 70531093311992994451646771456m,
        73949978069138388163940838889m, 77354313122912694185105219071m,
        1213766170969874494391056627m, 3081561358716687252805713649m,
        3082732579536108768113065974m, 1220991372808161450603187216m,
        78581358699470342360447514393m, 76109128861678447697508561905m,
        75502243563272129380224135663m, 78896921543467231770095319805m,
        2179679196345332391270287613m, 4338830174078735659142088697m,
        4650714182750414584320429314m, 3418804494205898040108256002m,
        1557077491546032522931212566m, 77376040767919248347220145656m,
        75809334407291471090360842222m, 78322691297526401051434484735m,
        4348529951871323093202439165m, 4989251265752579450371901704m,
        5597312470813537077508379403m, 4671270607515738602000092420m,
        1889532129915238800511405575m, 77081081831403468769999453167m,
        77683174187029576759828675319m, 4660418590176712645448764169m,
        4971145620211324499469864196m, 5607002785501568496010601230m,
        5307189237648302219852323087m, 6841316065198388299381157384m,
        5308388588818498857642298379m, 647988997712072446081699825m,
        2460187690506760228122780156m, 3409199070807303941323827205m,
        4649552314590726507357608209m, 3134763521725202195292039957m,
        4060800717490095119635265579m, 9313555161389368408616818213m,
        8991976096719656293972390161m, 2793818196253891283677814259m,
        77048506965452586199286796097m, 3420098330133489500069553497m,
        2810795141387667142788526121m, 3437013754922314846191425599m,
        3452687399601669993672216365m, 7757691002792640473062648148m,
        4666481959896172496725738775m, 2166409085788340820470003193m,
        64365675561202951673254613248m, 72128178712990387091628344576m,
        75532537563137722899854125312m, 75536154932036771593335594752m,
        77083570536266386456057948416m, 3110608541636285942974430976m,
        936945656906376365998470656m, 75839562049893511208233580800m
    };

    // [square][table]: the unpacked value plus the piece's material.
    int[][] tables;

    // Transposition table: key, best move, depth, score, bound (0 upper, 1 exact, 2 lower).
    (ulong, Move, int, int, int)[] tt = new (ulong, Move, int, int, int)[0x400000];

    Move[] killers = new Move[256];
    int[,] history = new int[7, 64];

    public MyBot()
    {
        int[] material = { 82, 337, 365, 477, 1025, 0, 94, 281, 297, 512, 936, 0 };
        tables = packedTables.Select(packed => decimal.GetBits(packed).Take(3)
            .SelectMany(part => BitConverter.GetBytes(part))
            .Select((b, table) => (int)((sbyte)b * 1.5) + material[table])
            .ToArray()).ToArray();
    }

    public Move Think(Board board, Timer timer)
    {
        Move rootMove = board.GetLegalMoves()[0];
        Array.Clear(history, 0, 448);
        int limit = timer.MillisecondsRemaining / 30 + timer.IncrementMilliseconds / 2;

        int Evaluate()
        {
            int mg = 0, eg = 0, phase = 0;
            foreach (bool white in new[] { true, false })
            {
                for (int piece = 0; piece < 6; piece++)
                {
                    ulong mask = board.GetPieceBitboard((PieceType)piece + 1, white);
                    while (mask != 0)
                    {
                        int square = BitboardHelper.ClearAndGetIndexOfLSB(ref mask) ^ (white ? 0 : 56);
                        mg += tables[square][piece];
                        eg += tables[square][piece + 6];
                        phase += 0x42110 >> piece * 4 & 15;
                    }
                }
                mg = -mg;
                eg = -eg;
            }
            return (mg * phase + eg * (24 - phase)) / (board.IsWhiteToMove ? 24 : -24);
        }

        int Search(int depth, int ply, int alpha, int beta, bool nullOk)
        {
            if (ply > 0 && board.IsRepeatedPosition())
                return 0;

            ulong key = board.ZobristKey;
            var (ttKey, ttMove, ttDepth, ttScore, ttBound) = tt[key & 0x3FFFFF];
            if (ttKey == key && ply > 0 && ttDepth >= depth
                && (ttBound == 1 || ttBound == 2 && ttScore >= beta || ttBound == 0 && ttScore <= alpha))
                return ttScore;

            bool inCheck = board.IsInCheck();
            if (inCheck)
                depth++;
            // Internal iterative reduction: a node the table has not seen gets a ply less.
            else if (ttKey != key && depth > 3)
                depth--;
            bool qs = depth <= 0, pv = beta - alpha > 1;
            int best = -99999, start = alpha, moveCount = 0, score, eval = Evaluate();

            if (qs)
            {
                best = eval;
                if (best >= beta)
                    return best;
                alpha = Math.Max(alpha, best);
            }
            else if (!pv && !inCheck)
            {
                // Reverse futility: far enough above beta, a quiet position stays there.
                if (depth < 5 && eval - 100 * depth >= beta)
                    return eval;
                if (nullOk && depth > 2)
                {
                    board.ForceSkipTurn();
                    score = -Search(depth - 3, ply + 1, -beta, 1 - beta, false);
                    board.UndoSkipTurn();
                    if (score >= beta)
                        return score;
                }
            }

            Move[] moves = board.GetLegalMoves(qs);
            int[] keys = moves.Select(move => move == ttMove && ttKey == key ? -1000000
                : move.IsCapture ? (int)move.MovePieceType - 1000 * (int)move.CapturePieceType
                : move == killers[ply] ? 0
                : -history[(int)move.MovePieceType, move.TargetSquare.Index]).ToArray();
            Array.Sort(keys, moves);

            Move bestMove = default;
            foreach (Move move in moves)
            {
                if (timer.MillisecondsElapsedThisTurn > limit)
                    throw null;
                bool quiet = !move.IsCapture && !move.IsPromotion;
                // Futility: a late quiet move cannot lift a position this far below alpha.
                if (moveCount > 0 && quiet && !pv && !inCheck && depth < 4 && eval + 150 * depth <= alpha)
                    continue;
                board.MakeMove(move);
                if (moveCount++ == 0 || qs)
                    score = -Search(depth - 1, ply + 1, -beta, -alpha, true);
                else
                {
                    score = -Search(depth - (moveCount > 3 && depth > 2 && quiet ? 3 : 1), ply + 1, -alpha - 1, -alpha, true);
                    if (score > alpha)
                        score = -Search(depth - 1, ply + 1, -beta, -alpha, true);
                }
                board.UndoMove(move);

                if (score > best)
                {
                    best = score;
                    bestMove = move;
                    if (ply == 0)
                        rootMove = move;
                    alpha = Math.Max(alpha, score);
                    if (alpha >= beta)
                    {
                        if (quiet)
                        {
                            killers[ply] = move;
                            history[(int)move.MovePieceType, move.TargetSquare.Index] += depth * depth;
                        }
                        break;
                    }
                }
            }

            if (!qs && moves.Length == 0)
                return inCheck ? ply - 99999 : 0;

            tt[key & 0x3FFFFF] = (key, bestMove, depth, best, best >= beta ? 2 : best > start ? 1 : 0);
            return best;
        }

        try
        {
            for (int depth = 1, score = 0; timer.MillisecondsElapsedThisTurn < limit / 2; depth++)
            {
                // Aspiration: a narrow window around the last score, the full one if it fails.
                int result = Search(depth, 0, score - 40, score + 40, true);
                score = Math.Abs(result - score) < 40 ? result : Search(depth, 0, -99999, 99999, true);
            }
        }
        catch { }
        return rootMove;
    }
}
