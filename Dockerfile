# Build: docker build -t stationmaster .
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --bin stationmaster

FROM debian:bookworm-slim
RUN useradd --system --home /srv stationmaster
COPY --from=build /src/target/release/stationmaster /usr/local/bin/stationmaster
USER stationmaster
EXPOSE 8080
CMD ["stationmaster", "serve"]
