//! How a seat is stored: `engine::Seat` as a `smallint` column (0 is the GM's seat in the
//! action log, players from 1). A stored number outside 0–255 is a decode error naming the
//! number, never a fallback to some seat (least of all the GM's).

use crate::engine::Seat;
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgHasArrayType, PgTypeInfo, PgValueRef};
use sqlx::{Decode, Encode, Postgres, Type};

/// A stored seat number that is no seat.
#[derive(Debug, thiserror::Error)]
#[error("the stored seat number {0} is not a seat (0 to 255)")]
pub struct SeatOutOfRange(pub i16);

impl Type<Postgres> for Seat {
    fn type_info() -> PgTypeInfo {
        <i16 as Type<Postgres>>::type_info()
    }
}

impl PgHasArrayType for Seat {
    fn array_type_info() -> PgTypeInfo {
        <i16 as PgHasArrayType>::array_type_info()
    }
}

impl Encode<'_, Postgres> for Seat {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <i16 as Encode<Postgres>>::encode_by_ref(&i16::from(self.0), buf)
    }
}

impl Decode<'_, Postgres> for Seat {
    fn decode(value: PgValueRef<'_>) -> Result<Self, BoxDynError> {
        let n = <i16 as Decode<Postgres>>::decode(value)?;
        Ok(Seat(u8::try_from(n).map_err(|_| SeatOutOfRange(n))?))
    }
}
