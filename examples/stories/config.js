// A story in the shape of Mapbox's storytelling template
// (github.com/mapbox/storytelling, config.js): one chapter per place.
var config = {
    style: 'mapbox://styles/mapbox/streets-v12',
    accessToken: 'YOUR_ACCESS_TOKEN',
    showMarkers: true,
    markerColor: '#3FB1CE',
    projection: 'equirectangular',
    inset: false,
    theme: 'dark',
    use3dTerrain: false,
    auto: false,
    title: 'Three rivers of Iberia',
    subtitle: 'Where the cities meet the water',
    byline: 'By a CameraHub presenter',
    footer: 'Source: the hub\'s own example.',
    chapters: [
        {
            id: 'tagus',
            alignment: 'left',
            hidden: false,
            title: 'The Tagus at Lisbon',
            image: './images/lisbon.jpg',
            description: 'The river widens into the <b>Mar da Palha</b> before it meets the ocean.<br>Lisbon sits on its north bank.',
            location: {
                center: [-9.1393, 38.7223],
                zoom: 11.5,
                pitch: 40,
                bearing: 20
            },
            mapAnimation: 'flyTo',
            rotateAnimation: false,
            callback: '',
            onChapterEnter: [],
            onChapterExit: []
        },
        {
            id: 'douro',
            alignment: 'right',
            hidden: false,
            title: 'The Douro at Porto',
            image: '',
            description: "Six bridges cross the Douro between Porto and Gaia.",
            location: {
                center: [-8.611, 41.1496],
                zoom: 13,
                pitch: 60,
                bearing: -15.5,
            },
            mapAnimation: 'easeTo',
            rotateAnimation: false,
            callback: '',
            onChapterEnter: [
                // layers the template would fade in
                { layer: 'rivers', opacity: 1, duration: 500 }
            ],
            onChapterExit: [],
        },
        {
            id: 'manzanares',
            alignment: 'fully',
            hidden: false,
            title: 'Madrid and the Manzanares',
            description: '',
            location: {
                center: [-3.7038, 40.4168],
                zoom: 10
            },
            mapAnimation: 'jumpTo',
            rotateAnimation: true,
            callback: '',
            onChapterEnter: [],
            onChapterExit: []
        }
    ]
};
