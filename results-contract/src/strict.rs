//! Serde readers that refuse what a halfcheck writer never writes, instead of picking a value.

/// A map whose keys must each appear once: a results file holds one result per test, so a
/// name written twice (two files pasted together, a hand edit) is an error naming it, not
/// "the last one wins".
pub mod unique_keys {
    use serde::de::{Deserialize, Deserializer, Error, MapAccess, Visitor};
    use std::collections::BTreeMap;
    use std::fmt;
    use std::marker::PhantomData;

    /// Reads the map, refusing a key seen before.
    pub fn deserialize<'de, D, V>(d: D) -> Result<BTreeMap<String, V>, D::Error>
    where
        D: Deserializer<'de>,
        V: Deserialize<'de>,
    {
        struct Unique<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for Unique<V> {
            type Value = BTreeMap<String, V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of test names to results")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value()?;
                    if out.contains_key(&key) {
                        return Err(A::Error::custom(format!(
                            "test '{}' has two results; a results file holds one per test",
                            crate::quote::cut(&key)
                        )));
                    }
                    out.insert(key, value);
                }
                Ok(out)
            }
        }
        d.deserialize_map(Unique(PhantomData))
    }
}

/// A duration in seconds, which is never negative nor NaN.
pub mod duration {
    use serde::de::{Deserialize, Deserializer, Error};

    /// Reads the duration, refusing a negative or non-finite one.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        let seconds = f64::deserialize(d)?;
        if seconds.is_finite() && seconds >= 0.0 {
            Ok(seconds)
        } else {
            Err(D::Error::custom(format!(
                "duration_s is {seconds}, expected a number of seconds of 0 or more"
            )))
        }
    }
}
