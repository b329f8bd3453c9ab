// replay page
