/** The `name` of the connector's noise-suppression `TrackProcessor` (how it is told apart from an app's own processor). */
export const NOISE_SUPPRESSOR_NAME = 'palaver-rnnoise';
