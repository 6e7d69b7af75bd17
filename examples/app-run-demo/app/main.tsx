import { createRoot } from 'react-dom/client';
import './app.css';
import { AppRunView } from './app-run-view.js';

// The demo backend writes where the platform is into the page; the browser talks to the platform directly.
const platformUrl = document.querySelector<HTMLMetaElement>('meta[name="palaver-platform"]')!.content;
createRoot(document.getElementById('root')!).render(<AppRunView platformUrl={platformUrl} />);
