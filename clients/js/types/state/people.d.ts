export class People {
    /** @type {Map<string, {client: string, name: string|null, role: string, follow: string}>} */
    byClient: Map<string, {
        client: string;
        name: string | null;
        role: string;
        follow: string;
    }>;
    clear(): void;
    /** Someone in the room (a later call for the same client replaces the entry). */
    add(client: any, name: any, role: any, follow?: string): void;
    /** A listed person's follow state changed (someone not listed is ignored). */
    setFollow(client: any, state: any): void;
    /** `client`'s follow state, or null for someone not listed. */
    follow(client: any): string;
    remove(client: any): void;
    has(client: any): boolean;
    /** The display name the hub gave `client`, or null. */
    name(client: any): string;
    /** The role `client` joined as, or null for someone not listed. */
    joinedAs(client: any): string;
    get size(): number;
    /** Everyone listed, in the order they were added. */
    all(): {
        client: string;
        name: string | null;
        role: string;
        follow: string;
    }[];
}
