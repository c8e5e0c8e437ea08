export class RouteState {
    /** @type {{lat: number, lon: number}[]} */
    points: {
        lat: number;
        lon: number;
    }[];
    /** A `welcome` (its `route`, if any, replaces the state). */
    welcome(m: any): void;
    /** A `routeChanged` event: replaces the route, or extends it with `append`. */
    changed(m: any): void;
    /**
     * The route as a GeoJSON FeatureCollection: one LineString (none when fewer
     * than two points). Longitudes are unwrapped so a route across the
     * antimeridian is drawn the short way.
     */
    geojson(): {
        type: string;
        features: {
            type: string;
            properties: {};
            geometry: {
                type: string;
                coordinates: number[][];
            };
        }[];
    };
}
