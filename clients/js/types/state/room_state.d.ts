/** What one hub message changed. */
export class Changes {
    /** @type {Set<string>} names of the facts that changed: 'session', 'role', 'presenter', 'people', 'limits',
     *  'tracking', 'route', 'animations', 'gestures', 'audience', 'camera', 'followPolicy', 'summoned', 'view',
     *  'projection', 'story', 'viewports' */
    what: Set<string>;
    /** A line for people (someone joined, left, presents now), or null. */
    note: any;
    /** Our role before it changed ('role'), or what the hello asked for when the welcome granted another. */
    roleWas: any;
    /** Who summoned us ('summoned'): {client, name}. */
    summonedBy: any;
    has(fact: any): boolean;
    add(...facts: any[]): Changes;
}
export class RoomState {
    /**
     * @param {Session} session what the client joins as; kept (the
     *   same object), and changed by the hub's answers (the room and role it granted)
     */
    constructor(session: Session);
    session: Session;
    people: People;
    route: RouteState;
    animations: LiveAnimations;
    /** The hub's newest camera (welcome or frame), kept across sessions until the next welcome. */
    hubCamera: any;
    /** The hub's newest frame of this session, or null. */
    lastFrame: any;
    /**
     * How the room's map draws the world: 'mercator' (flat Web Mercator, a new room's) or 'globe' (MapLibre GL
     * JS 5's globe, which blends into Mercator as it zooms in); welcome.projection, then projectionChanged. Kept
     * across sessions until the next welcome, like the camera.
     * @type {'mercator'|'globe'}
     */
    projection: 'mercator' | 'globe';
    /**
     * The room's storyboard as every client hears it: its length, the step the room is on (null: none) with its
     * title and notes, whether autoplay runs and whether drivers may step it; null while the room has none
     * (welcome.story, then storyStep and storyChanged). The steps themselves are the presenter's.
     * @type {{count: number, index: number|null, title: string|null, notes: string|null, playing: boolean,
     *   drivers: boolean, camera?: object}|null}
     */
    story: {
        count: number;
        index: number | null;
        title: string | null;
        notes: string | null;
        playing: boolean;
        drivers: boolean;
        camera?: object;
    };
    /** Forgets what the hub said about the room (a new session starts; the client asks again). */
    leave(): void;
    me: any;
    presenter: any;
    /** The client whose command moved the camera last. */
    lastBy: any;
    limits: any;
    tracking: any;
    rate: any;
    tick: any;
    /** Everyone in the room as the hub counts them (large audiences are counted, not listed). */
    clients: any;
    followers: any;
    /** The room's followers by follow state ({following, exploring, away}), null before a welcome. */
    followCounts: any;
    /** Whether the presenter lets followers explore (welcome.followPolicy, followPolicyChanged). */
    followPolicy: {
        explore: boolean;
        by: any;
    } | {
        explore: any;
        by: any;
    } | {
        explore: any;
        by: any;
    };
    /** What this client last told the hub of its own map (`follow`): following, exploring or away. */
    followState: string;
    /** The view of whoever moved the camera last ({by, width, height, padding}), null before anyone did. */
    view: any;
    /** Where the room's explorers look (`viewports`: presenters and drivers only): {clients: [{client, name, state, region}], others}. */
    viewports: {
        clients: any[];
        others: number;
    } | {
        clients: any;
        others: any;
    };
    /** Gesture kinds the hub does not act on for this client. */
    disabledGestures: Set<any>;
    /** What the hub sends us besides frames (welcome.events), null before a welcome. */
    subscriptions: any[];
    /** The room the client joins or joined. */
    get room(): string;
    /** The client's role: what it asks for until welcomed, then what the hub says. */
    get role(): string;
    /** True once the hub welcomed this session. */
    get joined(): boolean;
    get canDrive(): boolean;
    /** The events to ask for in the next hello (the role's). */
    get helloEvents(): string[];
    /** Changes what the next hello asks for ({room, role, name, token}); forgets the room. */
    rejoin(next: any): void;
    /** Applies a hub message (welcome, frame, event, animation, gestures, error); says what changed. */
    apply(m: any): any;
    welcome(m: any): Changes;
    frame(m: any): Changes;
    event(m: any): any;
    presenterChanged(m: any, changes: any): any;
    /** The role of someone in the room now: ours, the presenter's, else the role they joined as (a demoted presenter drives). */
    roleOf(client: any): string;
    /** The display name of a client id (its name, else the id; "you" marks ours). */
    nameOf(client: any): any;
    /** People {client, name, role, follow}, presenter first, then drivers, then followers, then by name. */
    roster(): {
        client: string;
        name: string;
        role: string;
        follow: string;
    }[];
    /** How this client fits the room's camera to its screen: 'cover' for a follower that asked for it, else 'same'. */
    get fit(): "same" | "cover";
    /** "12 following · 3 exploring · 1 away" (the room's followers), or null before the hub counted them. */
    followSummary(): string;
    /** How many people are in the room: the hub's count when it sent one, else the listed people. */
    get headCount(): number;
}
/**
 * What a client joins as: the next hello's room, role, name, token, rate and fit.
 */
export type Session = {
    room: string;
    role: string;
    name?: string;
    token?: string;
    rate?: number;
    fit?: string;
};
import { People } from "./people.js";
import { RouteState } from "./route.js";
import { LiveAnimations } from "./animations.js";
