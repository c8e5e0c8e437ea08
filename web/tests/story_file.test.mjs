// Storyboard files read in the page, pure parts: the distance model tours
// convert with, balloon text, storytelling chapters and the hub's steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { zoomForDistance, plainText, chapterSteps, readStoryFile, xmlProblem } from '../js/story/story_file.js';

test('a LookAt range is the eye\'s distance in MapLibre\'s model at the 720 px reference height', () => {
  // metres = (360 / tan(fov/2)) · 2πR cos(lat) / (512 · 2^zoom), the hub's CameraDistance.
  const zoom = zoomForDistance(12000, 38.7223);
  const metres = (360 / Math.tan((36.86989764584402 * Math.PI) / 360)) * 2 * Math.PI * 6371008.8 * Math.cos((38.7223 * Math.PI) / 180) / (512 * 2 ** zoom);
  assert.ok(Math.abs(metres - 12000) < 1e-6);
});

test('balloon HTML becomes plain text with its lines', () => {
  assert.equal(plainText('<p>Where the <b>Tagus</b> meets the Atlantic.</p><p>Seven hills &amp; one river.</p>'),
    'Where the Tagus meets the Atlantic.\nSeven hills & one river.');
});

test('storytelling chapters (as JSON) are steps with their ways, titles and notes', () => {
  const steps = chapterSteps({ chapters: [
    { id: 'a', title: 'Lisbon', description: 'The <b>Tagus</b>.', location: { center: [-9.14, 38.72], zoom: 11, pitch: 40, bearing: 20 }, mapAnimation: 'easeTo' },
    { id: 'b', title: 'Porto', location: { center: [-8.61, 41.15], zoom: 12 } },
  ] });
  assert.deepEqual(steps, [
    { camera: { lat: 38.72, lon: -9.14, zoom: 11, bearing: 20, tilt: 40 }, via: 'ease', title: 'Lisbon', notes: 'The Tagus.' },
    { camera: { lat: 41.15, lon: -8.61, zoom: 12, bearing: 0, tilt: 0 }, title: 'Porto' },
  ]);
  assert.throws(() => chapterSteps({ chapters: [{ location: { zoom: 3 } }] }), /chapters\[0\]: location.center/);
});

test('the hub\'s steps come as they are, and what is neither is named', () => {
  const steps = [{ camera: { lat: 1, lon: 2, zoom: 3 }, title: 'One' }];
  const parseXML = () => { throw new Error('no XML here'); };
  assert.deepEqual(readStoryFile(JSON.stringify({ steps }), { parseXML }), steps);
  assert.deepEqual(readStoryFile(JSON.stringify(steps), { parseXML }), steps);
  assert.throws(() => readStoryFile(readFileSync(new URL('../../examples/stories/config.js', import.meta.url), 'utf8'), { parseXML }),
    /neither KML nor JSON .*camhub story import/);
});

test('a parser report that names the line says the line first, as the hub does', () => {
  const chromium = 'This page contains the following errors:error on line 4 at column 12: Opening and ending tag mismatch: FlyTo line 0 and Tour\nBelow is a rendering of the page up to the first error.';
  assert.equal(xmlProblem(chromium), 'line 4: not well-formed XML (Opening and ending tag mismatch: FlyTo line 0 and Tour)');
});

test('a parser report without a line is given as its first line', () => {
  assert.equal(xmlProblem('XML Parsing Error: no root element found\nLocation: file'), 'not well-formed XML (XML Parsing Error: no root element found)');
});
