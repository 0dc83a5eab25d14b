"""Real-city routing data: OpenStreetMap extracts to directed road graphs to distance and duration
matrices between sampled points (the RRNCO recipe), and instance families sampled from them."""
