//! `System.Numerics.Vector2`: two `float`s, with .NET's single-precision arithmetic.

/// C#'s `Vector2` (a struct of two `float`s, `X` and `Y`).
///
/// ```
/// use framework::prelude::*;
/// let v = cs::Vector2::new(3.0, 4.0); // new Vector2(3, 4)
/// assert_eq!(v.length(), 5.0);
/// assert_eq!(v.length_squared(), 25.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vector2 {
    /// `X`.
    pub x: f32,
    /// `Y`.
    pub y: f32,
}

impl Vector2 {
    /// `new Vector2(x, y)`.
    pub fn new(x: f32, y: f32) -> Vector2 {
        Vector2 { x, y }
    }

    /// `LengthSquared()`: `X * X + Y * Y` in `float`, as .NET's `Vector2.Dot` of the
    /// vector with itself (each product rounded to `float`, then their sum).
    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y
    }

    /// `Length()`: `MathF.Sqrt(LengthSquared())`, a `float` square root (correctly
    /// rounded, as .NET's).
    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_is_rounded_to_a_float() {
        let v = Vector2::new(1.0, 1.0);
        assert_eq!(v.length(), std::f32::consts::SQRT_2);
        assert_eq!(Vector2::new(-7.0, 7.0).length() as i32, 9);
        assert_eq!(Vector2::default().length(), 0.0);
    }
}
