// The part of the C# challenge's ChessChallenge.API that pvs.cs, plain.cs and golf.cs
// use, as signatures only: enough for a C# compiler to type-check the bots
// (`mcs -target:library api_stub.cs pvs.cs`). The signatures are those the challenge
// published; no body does anything.
using System;
using System.Collections;
using System.Collections.Generic;

namespace ChessChallenge.API
{
    public interface IChessBot
    {
        Move Think(Board board, Timer timer);
    }

    public enum PieceType { None, Pawn, Knight, Bishop, Rook, Queen, King }

    public struct Square
    {
        public readonly int Index;
        public Square(int index) { Index = index; }
        public int File => throw null;
        public int Rank => throw null;
    }

    public struct Piece
    {
        public readonly bool IsWhite;
        public readonly PieceType PieceType;
        public readonly Square Square;
        public bool IsPawn => throw null;
        public bool IsKnight => throw null;
        public bool IsBishop => throw null;
        public bool IsRook => throw null;
        public bool IsQueen => throw null;
        public bool IsKing => throw null;
    }

    public struct Move : IEquatable<Move>
    {
        public static readonly Move NullMove;
        public Square StartSquare => throw null;
        public Square TargetSquare => throw null;
        public PieceType MovePieceType => throw null;
        public PieceType CapturePieceType => throw null;
        public PieceType PromotionPieceType => throw null;
        public bool IsCapture => throw null;
        public bool IsPromotion => throw null;
        public bool IsCastles => throw null;
        public bool IsEnPassant => throw null;
        public bool IsNull => throw null;
        public bool Equals(Move other) => throw null;
        public override bool Equals(object obj) => throw null;
        public override int GetHashCode() => throw null;
        public static bool operator ==(Move lhs, Move rhs) => throw null;
        public static bool operator !=(Move lhs, Move rhs) => throw null;
    }

    public sealed class PieceList : IEnumerable<Piece>
    {
        public readonly bool IsWhitePieceList;
        public readonly PieceType TypeOfPieceInList;
        public int Count => throw null;
        public Piece this[int index] => throw null;
        public IEnumerator<Piece> GetEnumerator() => throw null;
        IEnumerator IEnumerable.GetEnumerator() => throw null;
    }

    public sealed class Board
    {
        public void MakeMove(Move move) => throw null;
        public void UndoMove(Move move) => throw null;
        public bool TrySkipTurn() => throw null;
        public void ForceSkipTurn() => throw null;
        public void UndoSkipTurn() => throw null;
        public Move[] GetLegalMoves(bool capturesOnly = false) => throw null;
        public bool IsInCheck() => throw null;
        public bool IsInCheckmate() => throw null;
        public bool IsDraw() => throw null;
        public bool IsRepeatedPosition() => throw null;
        public Piece GetPiece(Square square) => throw null;
        public PieceList GetPieceList(PieceType pieceType, bool white) => throw null;
        public PieceList[] GetAllPieceLists() => throw null;
        public ulong GetPieceBitboard(PieceType pieceType, bool white) => throw null;
        public ulong AllPiecesBitboard => throw null;
        public bool IsWhiteToMove => throw null;
        public int PlyCount => throw null;
        public ulong ZobristKey => throw null;
    }

    public sealed class Timer
    {
        public readonly int GameStartTimeMilliseconds;
        public readonly int IncrementMilliseconds;
        public readonly int OpponentMillisecondsRemaining;
        public int MillisecondsElapsedThisTurn => throw null;
        public int MillisecondsRemaining => throw null;
    }

    public static class BitboardHelper
    {
        public static int ClearAndGetIndexOfLSB(ref ulong bitboard) => throw null;
        public static int GetNumberOfSetBits(ulong bitboard) => throw null;
        public static bool SquareIsSet(ulong bitboard, Square square) => throw null;
    }
}
