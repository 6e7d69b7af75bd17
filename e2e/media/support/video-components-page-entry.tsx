// Bundled with esbuild into a test page built only on LiveKit's React components (@livekit/components-react 2.x,
// unmodified), as a LiveKit user's app renders remote cameras: `useTracks` lists the camera tracks it is subscribed to
// and `VideoTrack` renders each. The tests read the page.
import { useState } from 'react';
import { Track } from 'livekit-client';
import { createRoot } from 'react-dom/client';
import { LiveKitRoom, VideoTrack, isTrackReference, useTracks } from '@livekit/components-react';

interface Details {
  url: string;
  token: string;
}

function Cameras() {
  const tracks = useTracks([Track.Source.Camera], { onlySubscribed: true }).filter(isTrackReference);
  return (
    <ul data-testid="cameras">
      {tracks.map((reference) => (
        <li key={reference.publication.trackSid} data-identity={reference.participant.identity}>
          <VideoTrack trackRef={reference} />
        </li>
      ))}
    </ul>
  );
}

function App() {
  const [details, setDetails] = useState<Details | null>(null);
  (window as unknown as { setConnectionDetails: typeof setDetails }).setConnectionDetails = setDetails;
  if (!details) return <p>waiting</p>;
  return (
    <LiveKitRoom serverUrl={details.url} token={details.token} connect audio={false} video={false}>
      <Cameras />
    </LiveKitRoom>
  );
}

createRoot(document.body.appendChild(document.createElement('div'))).render(<App />);
