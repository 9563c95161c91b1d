//! [`Network`]: the policy-value network of [`AzBot`](crate::AzBot), read from safetensors
//! and evaluated with candle on the CPU.
//!
//! The architecture is written twice, here and in the Python package (`agon.az.network`,
//! JAX), and a test checks that both give the same numbers on the same weights
//! (`tests/az.rs`, fixture `tests/data/az-fixture.safetensors`).

use std::fmt;
use std::path::Path;

use agon_core::Position;
use agon_rl::{Layout, ACTION_COUNT, AXIAL_SIDE, CHANNEL_COUNT};
use candle_core::{DType, Device, Tensor};

/// The squares of one plane of the input: the axial layout of agon-rl, 11 x 11.
const SQUARES: usize = AXIAL_SIDE * AXIAL_SIDE;

/// The most residual blocks, channels and head channels a model file may have: far above
/// any network worth shipping, low enough that a hostile file cannot ask for gigabytes.
const MAX_BLOCKS: usize = 64;
const MAX_CHANNELS: usize = 512;
const MAX_HEAD_CHANNELS: usize = 64;
const MAX_HIDDEN: usize = 4096;

/// The largest model file [`Network::load`] reads: 256 MiB, some fifty times a network
/// of the largest useful size here. A path to something else (a device that never ends, a
/// pipe) is refused before it is read.
pub const MAX_MODEL_BYTES: u64 = 256 << 20;

/// Why a [`Network`] could not be read or evaluated.
///
/// ```
/// use agon_bots::{Network, NetworkError};
/// let err = Network::from_bytes(b"not a model").err().unwrap();
/// assert!(matches!(err, NetworkError::Format { .. }));
/// assert!(err.to_string().starts_with("not a safetensors model"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum NetworkError {
    /// The file could not be read.
    Io {
        /// The path as given.
        path: String,
        /// The system's message.
        message: String,
    },
    /// The bytes are not a safetensors file (truncated, corrupt, or another format).
    Format {
        /// The reader's message.
        message: String,
    },
    /// A tensor the architecture needs is missing.
    MissingTensor {
        /// Its name, like `stem.weight`.
        name: String,
    },
    /// A tensor has the wrong shape: the model is of another architecture or for another
    /// input (the observation planes) or action space (3337 actions).
    Shape {
        /// Its name.
        name: String,
        /// The shape the architecture needs.
        expected: Vec<usize>,
        /// The file's shape.
        found: Vec<usize>,
    },
    /// The evaluation failed (a batch of the wrong size, or candle's own error).
    Inference {
        /// What went wrong.
        message: String,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io { path, message } => write!(f, "cannot read {path:?}: {message}"),
            NetworkError::Format { message } => write!(f, "not a safetensors model: {message}"),
            NetworkError::MissingTensor { name } => {
                write!(f, "the model has no tensor {name:?}: not an agon az network")
            }
            NetworkError::Shape {
                name,
                expected,
                found,
            } => write!(
                f,
                "tensor {name:?} has shape {found:?}, expected {expected:?}: a model of another shape"
            ),
            NetworkError::Inference { message } => write!(f, "evaluation failed: {message}"),
        }
    }
}

impl std::error::Error for NetworkError {}

fn inference(e: candle_core::Error) -> NetworkError {
    NetworkError::Inference {
        message: e.to_string(),
    }
}

/// A convolution or a dense layer: its weight and bias.
#[derive(Clone, Debug)]
struct Layer {
    weight: Tensor,
    bias: Tensor,
}

impl Layer {
    /// A same-padded convolution of an `(n, in, 11, 11)` input.
    fn conv(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let (_, _, k, _) = self.weight.dims4()?;
        let out = self.bias.dims1()?;
        let (_, c, _, w) = x.dims4()?;
        // candle 0.9's tiled kernel (k > 1) takes a contiguous NCHW input whose channels
        // equal its width, as the stem's 11 planes of 11 x 11 are, for a channels-last
        // one and reads it wrong. Such an input is given as a channels-last copy seen in
        // NCHW order, which the kernel reads right.
        let x = if k > 1 && c == w {
            x.permute((0, 2, 3, 1))?
                .contiguous()?
                .permute((0, 3, 1, 2))?
        } else {
            x.clone()
        };
        x.conv2d(&self.weight, k / 2, 1, 1, 1)?
            .broadcast_add(&self.bias.reshape((1, out, 1, 1))?)
    }

    /// A dense layer of an `(n, in)` input, the weight stored `(in, out)` as JAX keeps it.
    fn dense(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        x.matmul(&self.weight)?.broadcast_add(&self.bias)
    }
}

/// What a [`Network`] says of one position: a logit for each of the [`ACTION_COUNT`]
/// actions of agon-rl (legal or not: mask them before the softmax) and the value for the
/// player to act ([`Position::chooser`]), from -1 (a loss) to 1 (a win).
///
/// ```
/// use agon_bots::Prediction;
/// let p = Prediction { logits: vec![0.0; agon_rl::ACTION_COUNT], value: 0.5 };
/// assert_eq!(p.logits.len(), 3337);
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct Prediction {
    /// The policy's logits, indexed by [`agon_rl::Action::index`].
    pub logits: Vec<f32>,
    /// The value, in `[-1, 1]`.
    pub value: f32,
}

/// A policy-value network over agon-rl's observation planes, AlphaZero's: a residual tower
/// of 3x3 convolutions (ReLU, no normalisation) over the [`CHANNEL_COUNT`] planes in the
/// axial layout ([`Layout::Axial`], 11 x 11), a policy head (a 1x1 convolution, then a
/// dense layer to [`ACTION_COUNT`] logits) and a value head (a 1x1 convolution, a dense
/// hidden layer with ReLU, a dense layer to one value through `tanh`).
///
/// The sizes (channels, blocks, head widths) are read from the file's tensor shapes; the
/// tensor names are those `agon.az.network` writes (`stem.weight`, `blocks.0.conv1.weight`,
/// ..., `policy.conv.weight`, `policy.dense.weight`, `value.conv.weight`,
/// `value.hidden.weight`, `value.out.weight` and their `bias`). Any float type is read
/// (f32, f16, bf16, f64) and evaluated in f32.
///
/// ```no_run
/// use agon_bots::Network;
/// use agon_core::Position;
/// let network = Network::load("model.safetensors")?;
/// let prediction = &network.evaluate(&[Position::start()])?[0];
/// assert_eq!(prediction.logits.len(), agon_rl::ACTION_COUNT);
/// # Ok::<(), agon_bots::NetworkError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Network {
    stem: Layer,
    blocks: Vec<(Layer, Layer)>,
    policy_conv: Layer,
    policy_dense: Layer,
    value_conv: Layer,
    value_hidden: Layer,
    value_out: Layer,
}

/// The tensors of a file, looked up by name with their shapes checked.
struct Tensors(std::collections::HashMap<String, Tensor>);

impl Tensors {
    /// The tensor `name`.
    fn find(&self, name: &str) -> Result<&Tensor, NetworkError> {
        self.0.get(name).ok_or_else(|| NetworkError::MissingTensor {
            name: name.to_string(),
        })
    }

    /// The tensor `name` as f32, of shape `expected` (`None` where any size is taken).
    fn get(&self, name: &str, expected: &[Option<usize>]) -> Result<Tensor, NetworkError> {
        let t = self.find(name)?;
        let found = t.dims().to_vec();
        let fits = found.len() == expected.len()
            && found
                .iter()
                .zip(expected)
                .all(|(&f, e)| e.is_none_or(|e| e == f));
        if !fits {
            return Err(NetworkError::Shape {
                name: name.to_string(),
                // Sizes free in this check are shown as found.
                expected: expected
                    .iter()
                    .zip(found.iter().chain(std::iter::repeat(&0)))
                    .map(|(e, &f)| e.unwrap_or(f))
                    .collect(),
                found,
            });
        }
        t.to_dtype(DType::F32).map_err(|e| NetworkError::Format {
            message: format!("tensor {name:?}: {e}"),
        })
    }

    /// A layer `name` with weight of shape `weight` and a bias of its output size, `out`.
    fn layer(
        &self,
        name: &str,
        weight: &[Option<usize>],
        out: usize,
    ) -> Result<Layer, NetworkError> {
        Ok(Layer {
            weight: self.get(&format!("{name}.weight"), weight)?,
            bias: self.get(&format!("{name}.bias"), &[Some(out)])?,
        })
    }

    /// The size of dimension `dim` of tensor `name`, if it is from 1 to `max`.
    fn size(&self, name: &str, rank: usize, dim: usize, max: usize) -> Result<usize, NetworkError> {
        let found = self.find(name)?.dims().to_vec();
        match found.get(dim) {
            Some(&n) if found.len() == rank && (1..=max).contains(&n) => Ok(n),
            _ => Err(NetworkError::Shape {
                name: name.to_string(),
                expected: vec![max; rank],
                found,
            }),
        }
    }
}

impl Network {
    /// Reads a network from a safetensors file.
    ///
    /// # Errors
    ///
    /// [`NetworkError::Io`] if the file cannot be read, is not a regular file or is larger
    /// than [`MAX_MODEL_BYTES`], and the errors of [`Network::from_bytes`].
    ///
    /// ```
    /// use agon_bots::{Network, NetworkError};
    /// let err = Network::load("no/such/model.safetensors").err().unwrap();
    /// assert!(matches!(err, NetworkError::Io { .. }));
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Network, NetworkError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |message: String| NetworkError::Io {
            path: path.display().to_string(),
            message,
        };
        let mut file = std::fs::File::open(path).map_err(|e| io(e.to_string()))?;
        let metadata = file.metadata().map_err(|e| io(e.to_string()))?;
        if !metadata.is_file() {
            return Err(io("not a regular file".to_string()));
        }
        if metadata.len() > MAX_MODEL_BYTES {
            return Err(io(format!(
                "{} bytes, more than the {MAX_MODEL_BYTES} a model may have",
                metadata.len()
            )));
        }
        let mut bytes = Vec::new();
        // Bounded even if the file grows while it is read.
        (&mut file)
            .take(MAX_MODEL_BYTES)
            .read_to_end(&mut bytes)
            .map_err(|e| io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// Reads a network from the bytes of a safetensors file, checking every tensor's
    /// shape against the architecture (so that evaluating it cannot fail on a shape).
    ///
    /// # Errors
    ///
    /// [`NetworkError::Format`] for bytes that are not safetensors,
    /// [`NetworkError::MissingTensor`] and [`NetworkError::Shape`] for a model of
    /// another architecture, input or action space.
    ///
    /// ```
    /// use agon_bots::{Network, NetworkError};
    /// assert!(matches!(Network::from_bytes(&[]), Err(NetworkError::Format { .. })));
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu).map_err(|e| {
            NetworkError::Format {
                message: e.to_string(),
            }
        })?;
        let t = Tensors(tensors);
        let c = t.size("stem.weight", 4, 0, MAX_CHANNELS)?;
        let stem = t.layer("stem", &[Some(c), Some(CHANNEL_COUNT), Some(3), Some(3)], c)?;
        let mut blocks = Vec::new();
        while blocks.len() < MAX_BLOCKS
            && t.0
                .contains_key(&format!("blocks.{}.conv1.weight", blocks.len()))
        {
            let i = blocks.len();
            let shape = [Some(c), Some(c), Some(3), Some(3)];
            blocks.push((
                t.layer(&format!("blocks.{i}.conv1"), &shape, c)?,
                t.layer(&format!("blocks.{i}.conv2"), &shape, c)?,
            ));
        }
        let p = t.size("policy.conv.weight", 4, 0, MAX_HEAD_CHANNELS)?;
        let v = t.size("value.conv.weight", 4, 0, MAX_HEAD_CHANNELS)?;
        let h = t.size("value.hidden.weight", 2, 1, MAX_HIDDEN)?;
        let one_by_one = |out| [Some(out), Some(c), Some(1), Some(1)];
        Ok(Network {
            stem,
            blocks,
            policy_conv: t.layer("policy.conv", &one_by_one(p), p)?,
            policy_dense: t.layer(
                "policy.dense",
                &[Some(p * SQUARES), Some(ACTION_COUNT)],
                ACTION_COUNT,
            )?,
            value_conv: t.layer("value.conv", &one_by_one(v), v)?,
            value_hidden: t.layer("value.hidden", &[Some(v * SQUARES), Some(h)], h)?,
            value_out: t.layer("value.out", &[Some(h), Some(1)], 1)?,
        })
    }

    /// The network's size: (residual blocks, channels).
    ///
    /// ```no_run
    /// let network = agon_bots::Network::load("model.safetensors")?;
    /// let (blocks, channels) = network.size();
    /// # Ok::<(), agon_bots::NetworkError>(())
    /// ```
    pub fn size(&self) -> (usize, usize) {
        (
            self.blocks.len(),
            self.stem.bias.dims().first().copied().unwrap_or(0),
        )
    }

    /// Evaluates a batch of observations: `planes` holds `n` observations of agon-rl in
    /// the axial layout ([`Layout::Axial`], [`Layout::observation_len`] values each, as
    /// [`agon_rl::write_observation`] writes them). Returns the logits, `n` rows of
    /// [`ACTION_COUNT`], and the `n` values.
    ///
    /// # Errors
    ///
    /// [`NetworkError::Inference`] if `planes` is not a whole number of observations.
    ///
    /// ```no_run
    /// use agon_core::Position;
    /// use agon_rl::Layout;
    /// let network = agon_bots::Network::load("model.safetensors")?;
    /// let mut planes = vec![0.0f32; Layout::Axial.observation_len()];
    /// agon_rl::write_observation(&Position::start(), Layout::Axial, &mut planes);
    /// let (logits, values) = network.evaluate_planes(&planes)?;
    /// assert_eq!((logits.len(), values.len()), (3337, 1));
    /// # Ok::<(), agon_bots::NetworkError>(())
    /// ```
    pub fn evaluate_planes(&self, planes: &[f32]) -> Result<(Vec<f32>, Vec<f32>), NetworkError> {
        let len = Layout::Axial.observation_len();
        if planes.len() % len != 0 {
            return Err(NetworkError::Inference {
                message: format!(
                    "{} values are not a whole number of observations of {len}",
                    planes.len()
                ),
            });
        }
        let n = planes.len() / len;
        if n == 0 {
            return Ok((Vec::new(), Vec::new()));
        }
        self.forward(planes, n).map_err(inference)
    }

    fn forward(&self, planes: &[f32], n: usize) -> candle_core::Result<(Vec<f32>, Vec<f32>)> {
        let side = AXIAL_SIDE;
        let x = Tensor::from_slice(planes, (n, CHANNEL_COUNT, side, side), &Device::Cpu)?;
        let mut x = self.stem.conv(&x)?.relu()?;
        for (conv1, conv2) in &self.blocks {
            let y = conv1.conv(&x)?.relu()?;
            x = (conv2.conv(&y)? + x)?.relu()?;
        }
        let p = self.policy_conv.conv(&x)?.relu()?.flatten_from(1)?;
        let logits = self.policy_dense.dense(&p)?;
        let v = self.value_conv.conv(&x)?.relu()?.flatten_from(1)?;
        let v = self.value_hidden.dense(&v)?.relu()?;
        let values = self.value_out.dense(&v)?.tanh()?;
        Ok((
            logits.flatten_all()?.to_vec1()?,
            values.flatten_all()?.to_vec1()?,
        ))
    }

    /// Evaluates positions: the [`Prediction`] of each, from the view of its player to
    /// act.
    ///
    /// # Errors
    ///
    /// None in practice (the shapes were checked when the network was read): a
    /// [`NetworkError::Inference`] would be candle's own failure.
    ///
    /// ```no_run
    /// use agon_core::Position;
    /// let network = agon_bots::Network::load("model.safetensors")?;
    /// let p = network.evaluate(&[Position::start()])?;
    /// assert!((-1.0..=1.0).contains(&p[0].value));
    /// # Ok::<(), agon_bots::NetworkError>(())
    /// ```
    pub fn evaluate(&self, positions: &[Position]) -> Result<Vec<Prediction>, NetworkError> {
        let len = Layout::Axial.observation_len();
        let mut planes = vec![0.0f32; positions.len() * len];
        for (p, out) in positions.iter().zip(planes.chunks_exact_mut(len)) {
            agon_rl::write_observation(p, Layout::Axial, out);
        }
        let (logits, values) = self.evaluate_planes(&planes)?;
        Ok(logits
            .chunks_exact(ACTION_COUNT)
            .zip(values)
            .map(|(l, value)| Prediction {
                logits: l.to_vec(),
                value,
            })
            .collect())
    }
}
