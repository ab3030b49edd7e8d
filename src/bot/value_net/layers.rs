//! The network's layers, std only and allocation-free: a dense layer stored input-major
//! (`weights[input][output]`), so the inner loop runs over independent outputs and the compiler
//! can vectorise it, and the ReLU.

/// A dense layer from `IN` inputs to `OUT` outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense<const IN: usize, const OUT: usize> {
    /// `weights[i][o]`: the weight from input `i` to output `o`.
    pub weights: [[f32; OUT]; IN],
    pub biases: [f32; OUT],
}

impl<const IN: usize, const OUT: usize> Dense<IN, OUT> {
    /// A layer of zeros (filled by the weights' decoder).
    pub fn zeros() -> Self {
        Dense {
            weights: [[0.0; OUT]; IN],
            biases: [0.0; OUT],
        }
    }

    /// Appends the weights (input-major), then the biases, to `values`: the order every network
    /// file and embedded source writes a layer in.
    pub fn append_values(&self, values: &mut Vec<f32>) {
        self.weights
            .iter()
            .for_each(|row| values.extend_from_slice(row));
        values.extend_from_slice(&self.biases);
    }

    /// Takes the weights, then the biases, from `next` in [`Dense::append_values`]' order; 0
    /// where `next` has run out.
    pub fn fill_from(&mut self, next: &mut impl Iterator<Item = f32>) {
        let weights = self.weights.iter_mut().flatten();
        for weight in weights.chain(self.biases.iter_mut()) {
            *weight = next.next().unwrap_or(0.0);
        }
    }

    /// `out = biases + Σ_i input[i] × weights[i]`.
    #[inline(always)]
    pub fn forward(&self, input: &[f32; IN], out: &mut [f32; OUT]) {
        self.forward_within::<IN, OUT>(input, out);
    }

    /// [`Dense::forward`] of the first `INPUTS` inputs into the first `OUTPUTS` outputs only
    /// (the rest of `out` untouched): the same sums, in the same order, where the inputs left
    /// out weigh nothing (a narrower policy's zeros). The bounds are constants, so that the
    /// loops compile as [`Dense::forward`]'s do.
    #[inline(always)]
    pub fn forward_within<const INPUTS: usize, const OUTPUTS: usize>(
        &self,
        input: &[f32; IN],
        out: &mut [f32; OUT],
    ) {
        let first: &mut [f32; OUTPUTS] = (&mut out[..OUTPUTS]).try_into().expect("OUTPUTS ≤ OUT");
        self.forward_into::<INPUTS, OUTPUTS>(input, first);
    }

    /// [`Dense::forward_within`] into an array of the first `OUTPUTS` outputs alone: a layer
    /// computed within a narrower policy's widths needs no room, nor zeros, past them.
    #[inline(always)]
    pub fn forward_into<const INPUTS: usize, const OUTPUTS: usize>(
        &self,
        input: &[f32; IN],
        out: &mut [f32; OUTPUTS],
    ) {
        out.copy_from_slice(&self.biases[..OUTPUTS]);
        for (value, row) in input[..INPUTS].iter().zip(self.weights.iter()) {
            for (sum, weight) in out.iter_mut().zip(&row[..OUTPUTS]) {
                *sum += value * weight;
            }
        }
    }
}

/// `max(0, x)` in place.
#[inline(always)]
pub fn relu<const N: usize>(values: &mut [f32; N]) {
    for value in values.iter_mut() {
        *value = value.max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dense_layer_is_an_affine_map() {
        let layer = Dense::<2, 3> {
            weights: [[1.0, 0.0, -1.0], [2.0, 0.5, 0.0]],
            biases: [0.5, 0.0, 1.0],
        };
        let mut out = [0.0; 3];
        layer.forward(&[3.0, -2.0], &mut out);
        assert_eq!(out, [0.5 + 3.0 - 4.0, -1.0, 1.0 - 3.0]);
        relu(&mut out);
        assert_eq!(out, [0.0, 0.0, 0.0]);
    }
}
