//! The API's OpenAPI description (issue 19): served, and it covers every route of the API router
//! — each described operation is answered by a handler (not the router's 404/405), and the
//! described set is the README's.

use crate::db::test_db;
use crate::helpers::spawn_app;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use stationmaster::service::Review;

#[tokio::test]
async fn the_openapi_description_lists_every_api_route_and_each_is_served() {
    let (pool, _db) = test_db().await;
    let app = spawn_app(pool).await;
    let g = app.create_game(Review::Gm).await;
    let r = app.get("/api/v1/openapi.json").await;
    assert_eq!(r.status, StatusCode::OK);
    let spec = r.json();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3."), "{}", spec["openapi"]);
    assert!(spec["components"]["securitySchemes"]["seat_token"].is_object());
    // HR 16: a line not understood is stored (201); only a sheet with no readable line is 422.
    let submit = &spec["paths"]["/api/v1/games/{id}/orders"]["post"]["responses"];
    assert!(submit["201"]["description"].as_str().unwrap().contains("HR 16"), "{submit}");
    assert!(
        submit["422"]["description"].as_str().unwrap().contains("no line could be understood"),
        "{submit}"
    );
    let mut ops = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.push(format!("{} {path}", method.to_uppercase()));
        }
    }
    ops.sort();
    assert_eq!(
        ops,
        [
            "GET /api/v1/games/{id}",
            "GET /api/v1/games/{id}/orders",
            "GET /api/v1/games/{id}/turns/{turn}/orders",
            "POST /api/v1/games/{id}/orders",
            "POST /api/v1/games/{id}/orders/final",
        ]
    );
    for op in &ops {
        let (method, path) = op.split_once(' ').unwrap();
        let uri = path.replace("{id}", &g.id.to_string()).replace("{turn}", "1");
        let r = app.send(Request::builder().method(method).uri(&uri).body(Body::empty()).unwrap()).await;
        assert_ne!(r.status, StatusCode::METHOD_NOT_ALLOWED, "{op}");
        assert!(!(r.status == StatusCode::NOT_FOUND && r.body.is_empty()), "{op} is not routed");
        assert!(r.status != StatusCode::INTERNAL_SERVER_ERROR, "{op}: {}", r.body);
    }
}
