//! Symmetric positive definite matrices stored by their envelope, for the rating
//! intervals: row `r` keeps only its columns from the first one that is not zero up to
//! the diagonal. A Cholesky factor fills in nothing outside that envelope, so a field
//! whose players meet others of similar strength (a ladder, a Swiss event), ordered by
//! rating, needs room in proportion to players times the spread of their opponents, not
//! players squared.

/// The lower triangle of a symmetric matrix within its envelope.
#[derive(Debug, Clone)]
pub(crate) struct Envelope {
    /// The first column stored in each row (at most the row itself).
    first: Vec<usize>,
    /// Where each row starts in `values`; one more entry than rows.
    start: Vec<usize>,
    values: Vec<f64>,
}

impl Envelope {
    /// The zero matrix whose row `r` stores columns `first[r]..=r`.
    pub(crate) fn new(first: Vec<usize>) -> Envelope {
        let mut start = Vec::with_capacity(first.len() + 1);
        let mut at = 0;
        for (r, &f) in first.iter().enumerate() {
            assert!(f <= r, "row {r} cannot start after its diagonal");
            start.push(at);
            at += r - f + 1;
        }
        start.push(at);
        Envelope {
            first,
            start,
            values: vec![0.0; at],
        }
    }

    /// The order of the matrix.
    pub(crate) fn order(&self) -> usize {
        self.first.len()
    }

    /// The stored part of row `r`: columns `first[r]..=r`.
    fn row(&self, r: usize) -> &[f64] {
        &self.values[self.start[r]..self.start[r + 1]]
    }

    /// Adds `v` at (`r`, `c`) with `c <= r`, inside the envelope.
    pub(crate) fn add(&mut self, r: usize, c: usize, v: f64) {
        debug_assert!(
            c <= r && c >= self.first[r],
            "({r}, {c}) is outside the envelope"
        );
        self.values[self.start[r] + c - self.first[r]] += v;
    }

    fn diagonal_index(&self, r: usize) -> usize {
        self.start[r + 1] - 1
    }

    /// Cholesky factorisation in place (`A = L L^T`, `L` in the same envelope); false if
    /// the matrix is not positive definite.
    fn factorise(&mut self) -> bool {
        for i in 0..self.order() {
            let fi = self.first[i];
            for j in fi..=i {
                let fj = self.first[j];
                let lo = fi.max(fj);
                let (row_i, row_j) = (self.row(i), self.row(j));
                let sum = dot(&row_i[lo - fi..j - fi], &row_j[lo - fj..j - fj]);
                let at = self.start[i] + j - fi;
                let a = self.values[at] - sum;
                self.values[at] = if j == i {
                    if a <= 0.0 || !a.is_finite() {
                        return false;
                    }
                    a.sqrt()
                } else {
                    a / self.values[self.diagonal_index(j)]
                };
            }
        }
        true
    }
}

/// The Cholesky factor `L` of an [`Envelope`] matrix.
#[derive(Debug)]
pub(crate) struct Factor(Envelope);

impl Factor {
    /// Factorises the matrix `assemble` builds, adding a growing ridge to its diagonal
    /// while it is not positive definite (only results that leave a direction without
    /// any information, such as a perfect score without prior, make it so). Each attempt
    /// assembles the matrix again, so only one copy is ever held.
    pub(crate) fn with_ridge(assemble: impl Fn() -> Envelope) -> Factor {
        let mut ridge = 0.0;
        loop {
            let mut a = assemble();
            let m = a.order();
            if ridge > 0.0 {
                for r in 0..m {
                    let at = a.diagonal_index(r);
                    a.values[at] += ridge;
                }
            }
            let trace: f64 = (0..m).map(|r| a.values[a.diagonal_index(r)]).sum();
            if a.factorise() {
                return Factor(a);
            }
            ridge = if ridge == 0.0 {
                1e-9 * trace.max(1e-12) / m as f64
            } else {
                ridge * 100.0
            };
        }
    }

    fn l(&self, r: usize, c: usize) -> f64 {
        let a = &self.0;
        if c < a.first[r] {
            0.0
        } else {
            a.values[a.start[r] + c - a.first[r]]
        }
    }

    /// Solves `L L^T x = b` in place.
    pub(crate) fn solve(&self, b: &mut [f64]) {
        let a = &self.0;
        let m = a.order();
        self.forward(b, 0);
        // L^T x = y, by rows of L taken from the last: each row's unknown is final when
        // reached, and is taken out of the earlier ones.
        for k in (0..m).rev() {
            b[k] /= self.l(k, k);
            let fk = a.first[k];
            let xk = b[k];
            for (c, l) in (fk..k).zip(a.row(k)) {
                b[c] -= l * xk;
            }
        }
    }

    /// Solves `L y = b` in place, for a `b` that is zero before row `from`.
    fn forward(&self, b: &mut [f64], from: usize) {
        let a = &self.0;
        for k in from..a.order() {
            let fk = a.first[k];
            let lo = fk.max(from);
            let sum = if lo < k {
                dot(&a.row(k)[lo - fk..k - fk], &b[lo..k])
            } else {
                0.0
            };
            b[k] = (b[k] - sum) / self.l(k, k);
        }
    }

    /// The diagonal of the inverse `A^-1 = L^-T L^-1`: entry `r` is the squared length
    /// of `L^-1 e_r`, found by forward substitution from row `r` (one vector of room).
    pub(crate) fn inverse_diagonal(&self) -> Vec<f64> {
        let m = self.0.order();
        let mut y = vec![0.0; m];
        (0..m)
            .map(|r| {
                y[r..].fill(0.0);
                y[r] = 1.0;
                self.forward(&mut y, r);
                y[r..].iter().map(|v| v * v).sum()
            })
            .collect()
    }
}

/// A dot product the compiler vectorises (four independent sums); the dense Cholesky of
/// the ratings' fit uses it too.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense symmetric matrix with the given envelope, filled from a formula.
    fn sample(first: &[usize], entry: impl Fn(usize, usize) -> f64) -> (Envelope, Vec<f64>) {
        let m = first.len();
        let mut a = Envelope::new(first.to_vec());
        let mut dense = vec![0.0; m * m];
        for r in 0..m {
            for c in first[r]..=r {
                let v = entry(r, c);
                a.add(r, c, v);
                dense[r * m + c] = v;
                dense[c * m + r] = v;
            }
        }
        (a, dense)
    }

    /// The inverse by Gauss–Jordan elimination, as the reference.
    fn dense_inverse(mut a: Vec<f64>, m: usize) -> Vec<f64> {
        let mut inv: Vec<f64> = (0..m * m)
            .map(|k| if k / m == k % m { 1.0 } else { 0.0 })
            .collect();
        for col in 0..m {
            let pivot = a[col * m + col];
            for c in 0..m {
                a[col * m + c] /= pivot;
                inv[col * m + c] /= pivot;
            }
            for r in (0..m).filter(|&r| r != col) {
                let f = a[r * m + col];
                for c in 0..m {
                    a[r * m + c] -= f * a[col * m + c];
                    inv[r * m + c] -= f * inv[col * m + c];
                }
            }
        }
        inv
    }

    #[test]
    fn solves_and_inverts_a_banded_matrix_with_a_full_last_row() {
        // A ladder (each row reaches back up to three columns) bordered by a full row,
        // as the ratings' information is with the draw parameter last.
        let m = 12;
        let first: Vec<usize> = (0..m)
            .map(|r: usize| {
                if r == m - 1 {
                    0
                } else {
                    r.saturating_sub(1 + r % 3)
                }
            })
            .collect();
        let entry = |r: usize, c: usize| {
            if r == c {
                10.0 + r as f64
            } else {
                ((r * 7 + c * 3) % 5) as f64 * 0.3 - 0.6
            }
        };
        let (a, dense) = sample(&first, entry);
        let factor = Factor::with_ridge(|| a.clone());
        let inverse = dense_inverse(dense.clone(), m);
        for (r, d) in factor.inverse_diagonal().into_iter().enumerate() {
            assert!((d - inverse[r * m + r]).abs() < 1e-12, "row {r}: {d}");
        }
        let b: Vec<f64> = (0..m).map(|r| (r as f64 * 0.7).cos()).collect();
        let mut x = b.clone();
        factor.solve(&mut x);
        for r in 0..m {
            let back: f64 = (0..m).map(|c| dense[r * m + c] * x[c]).sum();
            assert!((back - b[r]).abs() < 1e-12, "row {r}: {back} vs {}", b[r]);
        }
    }

    #[test]
    fn a_singular_matrix_gets_a_small_ridge() {
        // [[1, -1], [-1, 1]] has no inverse; a ridge makes it factorisable.
        let (a, _) = sample(&[0, 0], |r, c| if r == c { 1.0 } else { -1.0 });
        let factor = Factor::with_ridge(|| a.clone());
        let d = factor.inverse_diagonal();
        assert!(d.iter().all(|v| v.is_finite() && *v > 1e6), "{d:?}");
    }
}
