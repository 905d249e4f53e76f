//! The one error answer of `docs/ONLINE.md`: a 4xx (or 500) status with `{"error": "<sentence>"}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::referee::ActionError;
use crate::store::StoreError;

/// A refused or failed request.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

/// What handlers return.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// An error with this status and sentence.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into() }
    }

    /// 400: malformed input.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401: no token, a bad one, or wrong credentials.
    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: not the caller's to do.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: it cannot be done in the state things are in.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// The status.
    #[cfg(test)]
    #[must_use]
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        // The client learns that it failed, the operator's log learns why.
        eprintln!("error: {error}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the server could not complete the request; try again")
    }
}

impl From<ActionError> for ApiError {
    fn from(error: ActionError) -> ApiError {
        match error {
            ActionError::NotYourTurn => ApiError::forbidden(error.to_string()),
            ActionError::GameOver(_) | ActionError::Illegal { .. } | ActionError::TooLateToAbort => {
                ApiError::conflict(error.to_string())
            }
        }
    }
}
