//! How well win logits predict the results: the mean log-loss (draws count as ½) and the
//! accuracy (the side given more than ½ won; drawn games left out).

/// Log-loss and accuracy of a predictor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    pub log_loss: f64,
    pub accuracy: f64,
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// The figures of `logits` against `targets` (1 win, 0 loss, ½ draw).
pub fn predict(logits: &[f32], targets: &[f32]) -> Prediction {
    let mut loss = 0.0;
    let (mut right, mut decided) = (0u64, 0u64);
    for (&logit, &target) in logits.iter().zip(targets) {
        let (z, y) = (f64::from(logit), f64::from(target));
        loss += softplus(z) - y * z;
        if target != 0.5 {
            decided += 1;
            if (z > 0.0) == (target > 0.5) {
                right += 1;
            }
        }
    }
    Prediction {
        log_loss: loss / logits.len().max(1) as f64,
        accuracy: right as f64 / decided.max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_coin_scores_ln2_and_a_sure_predictor_scores_0() {
        let coin = predict(&[0.0, 0.0], &[1.0, 0.0]);
        assert!((coin.log_loss - std::f64::consts::LN_2).abs() < 1e-12);
        let sure = predict(&[40.0, -40.0, 3.0], &[1.0, 0.0, 0.5]);
        assert!(sure.log_loss < 0.6 && sure.accuracy == 1.0);
        assert_eq!(predict(&[1.0, 1.0], &[1.0, 0.0]).accuracy, 0.5);
    }
}
