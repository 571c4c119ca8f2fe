/**
 * The replay script of a pcap action: the payload of each kept conversation, in captured order and
 * by side. The director extracts it from the processed capture and puts it in the signed work
 * (details.replay); the source actor plays the client side, the target actor the server side.
 */

/** Bounds of one script (the director refuses bigger captures with a reason). */
export const REPLAY_LIMITS = {
  /** Payload bytes over every conversation. */
  maxBytes: 1024 * 1024,
  maxConversations: 256,
  maxSegments: 4096,
} as const;

export interface ReplaySegment {
  from: 'client' | 'server';
  /** The bytes, base64. TCP: consecutive bytes of one side merged; UDP: one datagram. */
  data: string;
}

export interface ReplayConversation {
  protocol: 'tcp' | 'udp';
  /** Ports of the capture: the target serves server_port on its own address. */
  client_port: number;
  server_port: number;
  segments: ReplaySegment[];
}

export interface ReplayScript {
  upload_id: number;
  conversations: ReplayConversation[];
  /** Payload bytes of the whole script. */
  bytes: number;
}
