/** RFC 3261 timers: T1 (RTT estimate), T2 (largest retransmit interval), and 64*T1 (a transaction's lifetime). */
export const SIP_T1 = 500;
export const SIP_T2 = 4000;
export const SIP_TRANSACTION_TIMEOUT = 64 * SIP_T1;
