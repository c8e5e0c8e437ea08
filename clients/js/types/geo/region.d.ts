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
 * A region's corners with each longitude moved by whole turns next to the one
 * before it, so an outline across the antimeridian is drawn as one piece.
 * @param {number[][]} region [lon, lat] pairs
 * @returns {number[][]}
 */
export function continuousRegion(region: number[][]): number[][];
