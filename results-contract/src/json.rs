//! JSON for floats that may be NaN or infinite, which JSON numbers cannot hold.

/// Serde for floats that may be NaN or infinite, which JSON numbers cannot hold: those are
/// written as the strings `"NaN"`, `"inf"` and `"-inf"` and read back as the same values.
pub mod json_float {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// A float as JSON sees it: a number, or a string for the values JSON has no number for.
    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    pub(crate) enum JsonFloat {
        Number(f64),
        Text(String),
    }

    impl JsonFloat {
        /// The JSON form of `x`.
        pub(crate) fn from(x: f64) -> JsonFloat {
            if x.is_nan() {
                JsonFloat::Text("NaN".into())
            } else if x.is_infinite() {
                JsonFloat::Text(if x > 0.0 { "inf" } else { "-inf" }.into())
            } else {
                JsonFloat::Number(x)
            }
        }

        /// The value, or what was wrong with the text.
        pub(crate) fn value(self) -> Result<f64, String> {
            match self {
                JsonFloat::Number(x) => Ok(x),
                JsonFloat::Text(t) => match t.as_str() {
                    "NaN" => Ok(f64::NAN),
                    "inf" => Ok(f64::INFINITY),
                    "-inf" => Ok(f64::NEG_INFINITY),
                    other => Err(format!(
                        "expected a number, \"NaN\", \"inf\" or \"-inf\", found \"{other}\""
                    )),
                },
            }
        }
    }

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        JsonFloat::from(*x).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        JsonFloat::deserialize(d)?.value().map_err(D::Error::custom)
    }
}

/// [`json_float`] for an optional float (absent or `null`: `None`).
pub mod json_float_option {
    use super::json_float::JsonFloat;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        x.map(JsonFloat::from).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Option::<JsonFloat>::deserialize(d)?
            .map(|v| v.value().map_err(D::Error::custom))
            .transpose()
    }
}

/// [`json_float`] for lists of `f32` or `f64`.
pub mod json_floats {
    use super::json_float::JsonFloat;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Floats this module can write and read.
    pub trait Float: Copy {
        fn to_f64(self) -> f64;
        fn from_f64(x: f64) -> Self;
    }

    impl Float for f32 {
        fn to_f64(self) -> f64 {
            f64::from(self)
        }
        fn from_f64(x: f64) -> Self {
            x as f32
        }
    }

    impl Float for f64 {
        fn to_f64(self) -> f64 {
            self
        }
        fn from_f64(x: f64) -> Self {
            x
        }
    }

    pub fn serialize<T: Float, S: Serializer>(values: &[T], s: S) -> Result<S::Ok, S::Error> {
        let out: Vec<JsonFloat> = values.iter().map(|v| JsonFloat::from(v.to_f64())).collect();
        out.serialize(s)
    }

    pub fn deserialize<'de, T: Float, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        Vec::<JsonFloat>::deserialize(d)?
            .into_iter()
            .map(|v| v.value().map(T::from_f64).map_err(D::Error::custom))
            .collect()
    }
}
