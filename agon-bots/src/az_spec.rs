//! The spec of the AlphaZero-style bot, `az:MODEL:VISITS[:OPTION]...` ([`AzSpec`]), read
//! whether or not the crate has the `az` feature: without it, [`bot_by_name`] refuses an
//! `az` spec with [`SpecError::Unavailable`] rather than calling it an unknown bot.
//!
//! [`bot_by_name`]: crate::bot_by_name

use std::fmt;

use crate::{Bot, SpecError, SpecNumber, MAX_SPEC_LEN};

/// The spec of an `AzBot` (cargo feature `az`): `az:MODEL:VISITS` and options.
///
/// - `MODEL`: the name of a network shipped in the crate (`agon-az-2x32`,
///   `agon-az-2x32-gumbel`, see `AzBot::SHIPPED`), or a safetensors file written by
///   `agon.az` (a path without `:`).
/// - `VISITS`: the simulations per move, 1 to 1000000 (default 800 when omitted).
/// - `noise`: Dirichlet noise at the root, for self-play (AlphaZero's α = 0.3, ε = 0.25);
///   with `gK`, Gumbel noise on the root's logits instead.
/// - `tPLIES`: plays in proportion to the visit counts (temperature 1) for the game's
///   first `PLIES` plies, then the most visited move; 0 (always the most visited) when
///   omitted. With `gK`, in proportion to the improved policy.
/// - `bBATCH`: the leaves evaluated at once (1 to 256, default 8); the Gumbel search
///   evaluates one at a time and ignores it.
/// - `gK`: Gumbel AlphaZero's search (Danihelka et al. 2022, as DeepMind's mctx) in place
///   of PUCT, considering the `K` best moves at the root (1 to 256; 16 is mctx's usual):
///   Sequential Halving over them, the paper's deterministic selection below the root,
///   and as the search's statistics the improved policy (in millionths) rather than the
///   visit counts. Without `noise` its Gumbel noise is 0 and its move a function of the
///   position and history only.
/// - `sPERMILLE`: with `gK`, the scale `c_scale` of σ(completed Q) in thousandths (1 to
///   10000, default 1000: the paper's 1.0). mctx's default is 100 (0.1): a gentler
///   improved policy, the training target of self-play, where 1.0 makes it nearly one-hot
///   on the best Q of a few visits.
/// - `cPERMILLE`: contempt, how much worse than an even position a draw (repetition, two
///   passes, the move limit) is for the searching side, in thousandths of a win (0 to
///   1000, default 0, AlphaZero's: a draw is worth 0). Its opponent's draws are worth as
///   much more to it. The alpha-beta bot plays with such a contempt
///   ([`AlphaBetaBot::CONTEMPT`](crate::AlphaBetaBot::CONTEMPT)).
///
/// ```
/// use agon_bots::AzSpec;
/// let spec = AzSpec::parse("az:models/gen3.safetensors:200:noise:t30")?;
/// assert_eq!((spec.model.as_str(), spec.visits), ("models/gen3.safetensors", 200));
/// assert!(spec.noise);
/// assert_eq!((spec.temperature_plies, spec.batch), (30, AzSpec::DEFAULT_BATCH));
/// assert_eq!(spec.to_string(), "az:models/gen3.safetensors:200:noise:t30");
/// assert_eq!(AzSpec::parse("az:m:100:c150")?.contempt, 150);
/// assert_eq!(AzSpec::parse("az:m:32:noise:g16")?.considered, 16);
/// assert_eq!(AzSpec::parse("az:m:32:g16:s100")?.value_scale, 100);
/// assert_eq!(AzSpec::parse("az:m:32:g16")?.value_scale, AzSpec::DEFAULT_VALUE_SCALE);
/// assert_eq!(AzSpec::parse("az:m:32:s100:g16")?.to_string(), "az:m:32:g16:s100");
/// assert!(AzSpec::parse("az:m.safetensors:0").is_err());
/// assert!(AzSpec::parse("az:m.safetensors:100:fast").is_err());
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct AzSpec {
    /// The model: a path or a shipped network's name.
    pub model: String,
    /// Simulations per move.
    pub visits: u32,
    /// Whether the root gets Dirichlet noise.
    pub noise: bool,
    /// The plies, from the game's start, played in proportion to the visits.
    pub temperature_plies: u32,
    /// The leaves evaluated in one batch.
    pub batch: u32,
    /// The searching side's contempt for draws, in thousandths of a win.
    pub contempt: u32,
    /// The moves the Gumbel search considers at the root (`gK`), or 0 for PUCT.
    pub considered: u32,
    /// The Gumbel search's `c_scale` in thousandths (`sPERMILLE`).
    pub value_scale: u32,
}

impl AzSpec {
    /// The simulations of `az:MODEL` without a number: AlphaZero's 800.
    pub const DEFAULT_VISITS: u32 = 800;
    /// The most simulations a spec asks.
    pub const MAX_VISITS: u32 = 1_000_000;
    /// The batch of leaves evaluated at once when the spec sets none.
    pub const DEFAULT_BATCH: u32 = 8;
    /// The largest batch.
    pub const MAX_BATCH: u32 = 256;
    /// The largest contempt, a draw valued as a loss (in thousandths of a win).
    pub const MAX_CONTEMPT: u32 = 1000;
    /// The most moves the Gumbel search considers at the root (`gK`).
    pub const MAX_CONSIDERED: u32 = 256;
    /// The Gumbel search's `c_scale` when the spec sets none, in thousandths: the paper's 1.0.
    pub const DEFAULT_VALUE_SCALE: u32 = 1000;
    /// The largest `c_scale`, in thousandths.
    pub const MAX_VALUE_SCALE: u32 = 10_000;

    /// Whether `spec` names the az bot (its first part is `az`).
    ///
    /// ```
    /// assert!(agon_bots::AzSpec::is_az(" az:m:10"));
    /// assert!(!agon_bots::AzSpec::is_az("mcts:10"));
    /// ```
    pub fn is_az(spec: &str) -> bool {
        spec.trim().split(':').next() == Some("az")
    }

    /// The spec of a bot playing `model` with `visits` simulations, no noise, no
    /// temperature, the default batch.
    ///
    /// ```
    /// assert_eq!(agon_bots::AzSpec::new("m.safetensors", 50).to_string(), "az:m.safetensors:50");
    /// ```
    pub fn new(model: &str, visits: u32) -> AzSpec {
        AzSpec {
            model: model.to_string(),
            visits,
            noise: false,
            temperature_plies: 0,
            batch: AzSpec::DEFAULT_BATCH,
            contempt: 0,
            considered: 0,
            value_scale: AzSpec::DEFAULT_VALUE_SCALE,
        }
    }

    /// Reads an az spec (spaces around it are ignored).
    ///
    /// # Errors
    ///
    /// [`SpecError::TooLong`] past [`MAX_SPEC_LEN`] bytes, [`SpecError::UnknownBot`] if the
    /// first part is not `az`, [`SpecError::Model`] without a model, [`SpecError::BadNumber`] for visits, plies or a batch out
    /// of range, [`SpecError::UnknownPart`] for an option it does not know,
    /// [`SpecError::RepeatedPart`] for one given twice. Never panics.
    ///
    /// ```
    /// use agon_bots::{AzSpec, SpecError};
    /// assert!(matches!(AzSpec::parse("az"), Err(SpecError::Model { .. })));
    /// assert_eq!(AzSpec::parse("az:m")?.visits, AzSpec::DEFAULT_VISITS);
    /// assert!(matches!(AzSpec::parse("az:m:10:b0"), Err(SpecError::BadNumber { .. })));
    /// assert!(matches!(AzSpec::parse("az:m:10:noise:noise"), Err(SpecError::RepeatedPart { .. })));
    /// # Ok::<(), SpecError>(())
    /// ```
    pub fn parse(spec: &str) -> Result<AzSpec, SpecError> {
        if spec.len() > MAX_SPEC_LEN {
            return Err(SpecError::TooLong { len: spec.len() });
        }
        let trimmed = spec.trim();
        let mut parts = trimmed.split(':');
        let name = parts.next().unwrap_or("");
        if name != "az" {
            return Err(SpecError::UnknownBot {
                spec: spec.to_string(),
                name: name.to_string(),
            });
        }
        let bad = |part: &str, number, min: u32, max: u32| SpecError::BadNumber {
            spec: spec.to_string(),
            part: part.to_string(),
            number,
            min: u64::from(min),
            max: u64::from(max),
        };
        let read = |part: &str, digits: &str, number, max: u32| {
            digits
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| bad(part, number, 1, max))
        };
        let model = match parts.next() {
            Some(m) if !m.is_empty() => m.to_string(),
            _ => {
                return Err(SpecError::Model {
                    spec: spec.to_string(),
                    error: "no model: expected az:MODEL:VISITS".to_string(),
                })
            }
        };
        let mut az = AzSpec::new(&model, AzSpec::DEFAULT_VISITS);
        if let Some(part) = parts.next() {
            az.visits = read(part, part, SpecNumber::Visits, AzSpec::MAX_VISITS)?;
        }
        let (mut noise, mut plies, mut batch, mut contempt, mut gumbel, mut scale) =
            (false, false, false, false, false, false);
        for part in parts {
            let repeated = |seen: &mut bool| {
                if std::mem::replace(seen, true) {
                    Err(SpecError::RepeatedPart {
                        spec: spec.to_string(),
                        part: part.to_string(),
                    })
                } else {
                    Ok(())
                }
            };
            if part == "noise" {
                repeated(&mut noise)?;
                az.noise = true;
            } else if let Some(digits) = part.strip_prefix('t') {
                repeated(&mut plies)?;
                // 0 plies is a valid temperature setting: read it apart.
                az.temperature_plies = if digits == "0" {
                    0
                } else {
                    read(part, digits, SpecNumber::Plies, AzSpec::MAX_VISITS)?
                };
            } else if let Some(digits) = part.strip_prefix('b') {
                repeated(&mut batch)?;
                az.batch = read(part, digits, SpecNumber::Batch, AzSpec::MAX_BATCH)?;
            } else if let Some(digits) = part.strip_prefix('c') {
                repeated(&mut contempt)?;
                // 0 is AlphaZero's: read it apart, as for the plies.
                az.contempt = if digits == "0" {
                    0
                } else {
                    read(part, digits, SpecNumber::Contempt, AzSpec::MAX_CONTEMPT)?
                };
            } else if let Some(digits) = part.strip_prefix('g') {
                repeated(&mut gumbel)?;
                az.considered = read(part, digits, SpecNumber::Considered, AzSpec::MAX_CONSIDERED)?;
            } else if let Some(digits) = part.strip_prefix('s') {
                repeated(&mut scale)?;
                az.value_scale = read(
                    part,
                    digits,
                    SpecNumber::ValueScale,
                    AzSpec::MAX_VALUE_SCALE,
                )?;
            } else {
                return Err(SpecError::UnknownPart {
                    spec: spec.to_string(),
                    part: part.to_string(),
                });
            }
        }
        Ok(az)
    }

    /// The bot of this spec, seeded with `seed` (the noise and the moves drawn under the
    /// temperature): its network read from the file or the shipped bytes.
    ///
    /// # Errors
    ///
    /// [`SpecError::Model`] if the network cannot be read (a missing or corrupt file, a
    /// model of the wrong shape); [`SpecError::Unavailable`] without the `az` feature.
    ///
    /// ```
    /// use agon_bots::{AzSpec, SpecError};
    /// let err = AzSpec::new("no/such.safetensors", 10).bot(0).err().unwrap();
    /// assert!(matches!(err, SpecError::Model { .. } | SpecError::Unavailable { .. }));
    /// ```
    pub fn bot(&self, seed: u64) -> Result<Box<dyn Bot + Send>, SpecError> {
        #[cfg(feature = "az")]
        {
            crate::az::AzBot::from_spec(self, seed).map(|b| Box::new(b) as Box<dyn Bot + Send>)
        }
        #[cfg(not(feature = "az"))]
        {
            let _ = seed;
            Err(SpecError::Unavailable {
                spec: self.to_string(),
                feature: "az",
            })
        }
    }
}

/// The spec in its canonical form, the name of the bot it builds.
impl fmt::Display for AzSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "az:{}:{}", self.model, self.visits)?;
        if self.noise {
            f.write_str(":noise")?;
        }
        if self.temperature_plies > 0 {
            write!(f, ":t{}", self.temperature_plies)?;
        }
        if self.batch != AzSpec::DEFAULT_BATCH {
            write!(f, ":b{}", self.batch)?;
        }
        if self.contempt > 0 {
            write!(f, ":c{}", self.contempt)?;
        }
        if self.considered > 0 {
            write!(f, ":g{}", self.considered)?;
        }
        if self.value_scale != AzSpec::DEFAULT_VALUE_SCALE {
            write!(f, ":s{}", self.value_scale)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without the `az` feature an az spec is read, then refused with a message that
    /// names the feature (`cargo test -p agon-bots --lib`; the workspace builds agon-bots
    /// with the feature, which agon-py enables).
    #[cfg(not(feature = "az"))]
    #[test]
    fn without_the_feature_an_az_spec_names_it() {
        let err = crate::bot_by_name("az:model.safetensors:100", 0)
            .err()
            .unwrap();
        assert_eq!(
            err,
            SpecError::Unavailable {
                spec: "az:model.safetensors:100".into(),
                feature: "az"
            }
        );
        assert_eq!(
            err.to_string(),
            "bot \"az:model.safetensors:100\" needs agon-bots built with the cargo feature `az`"
        );
        // A bad spec is still a bad spec.
        assert!(matches!(
            crate::bot_by_name("az:m:0", 0),
            Err(SpecError::BadNumber { .. })
        ));
    }

    #[test]
    fn az_specs_round_trip() {
        for spec in [
            "az:m:1",
            "az:a/b.safetensors:800:noise:t30:b16",
            "az:m:5:b1",
            "az:m:32:noise:g16",
            "az:m:800:c700:g1",
        ] {
            assert_eq!(AzSpec::parse(spec).unwrap().to_string(), spec);
        }
        assert_eq!(AzSpec::parse(" az:m:5:t0 ").unwrap().to_string(), "az:m:5");
        assert_eq!(
            AzSpec::parse("az:m:5:g4:noise").unwrap().to_string(),
            "az:m:5:noise:g4"
        );
        for bad in ["az:m:5:g0", "az:m:5:g257", "az:m:5:g", "az:m:5:gx"] {
            assert!(
                matches!(AzSpec::parse(bad), Err(SpecError::BadNumber { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            AzSpec::parse("az:m:5:g2:g3"),
            Err(SpecError::RepeatedPart { .. })
        ));
    }
}
