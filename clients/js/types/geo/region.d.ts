/**
 * @param {object} camera the camera shown (wire form)
 * @param {{width: number, height: number}} viewport px
 * @param {string} [projection] the room's: 'mercator' (default) or 'globe'
 * @returns {number[][]} four [lon, lat]: top-left, top-right, bottom-right, bottom-left
 */
export function visibleRegion(camera: object, viewport: {
    width: number;
    height: number;
}, projection?: string): number[][];
/**
 * A region's corners with their longitudes moved by whole turns so that the outline is drawn as one piece
 * across the antimeridian: of the ways to place corners 1-3 within a turn of corner 0, the clockwise ring
 * (the quad's corners go top-left, top-right, bottom-right, bottom-left, clockwise on the map whatever the
 * bearing) with the shortest edges. A region wider than half the world (a low zoom) is placed right too,
 * which taking each corner nearest the one before would not do.
 * @param {number[][]} region [lon, lat] pairs (four)
 * @returns {number[][]}
 */
export function continuousRegion(region: number[][]): number[][];
