export declare const scale: number;
export declare function scaled(ms: number): number;
export declare const SERVER_START_MS: number;
export declare const JOURNEY_MS: number;
export declare const EXPECT_MS: number;
